"""Hostile file names and messages cannot forge output lines, workflow commands or terminal
escapes, in any format; JSON keeps them exactly (its own escaping is lossless)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.github import format_github
from dagroute_lint.formatters.text import format_text
from tests.helpers import CELERY_K8S, write_repo

# A newline that would start a forged diagnostic / workflow command, an ANSI colour and
# screen-clear, a percent sign GitHub would decode, a bidi override, a Unicode line separator.
HOSTILE = "x\n::error file=a.py::forged\r\x1b[31m\x1b[2J%0A\u202e\u2028y"
DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id={task_id!r}, bash_command="x", queue="reports")
"""


def test_printable_escapes_controls_separators_and_bidi_but_keeps_backslashes() -> None:
    assert printable(HOSTILE) == (
        "x\\n::error file=a.py::forged\\r\\x1b[31m\\x1b[2J%0A\\u202e\\u2028y"
    )
    assert printable("dags\\win\\path.py\té") == "dags\\win\\path.py\\té"
    assert printable(printable(HOSTILE)) == printable(HOSTILE)


@pytest.fixture
def hostile_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    name = f"dags/{HOSTILE.replace('/', '_')}.py"
    # The hostile id is no valid Airflow id (DRL006); these tests are about one message's escaping.
    settings = '[tool.dagroute-lint]\nignore = ["DRL006"]\n'
    write_repo(
        tmp_path,
        {
            "dagroute.toml": CELERY_K8S,
            "pyproject.toml": settings,
            name: DAG.format(task_id=HOSTILE),
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def assert_inert(output: str, lines: int) -> None:
    assert output.count("\n") == lines and output.endswith("\n")
    for forbidden in ("\r", "\x1b", "\u202e", "\u2028"):
        assert forbidden not in output


def test_text_format(hostile_repo: Path) -> None:
    code, out, err = invoke("dags")
    assert code == 1
    assert_inert(out, 1)
    assert out.startswith("dags/x\\n::error file=a.py::forged\\r\\x1b[31m")
    assert "DRL101 [error] task 'x\\n::error file=a.py::forged\\r\\x1b[31m" in out
    assert_inert(err, 2)  # the coverage line, then the count of problems


def test_github_format(hostile_repo: Path) -> None:
    # Line breaks and "%" take GitHub's own escapes, which its runner decodes; every other
    # control character is escaped for people, as in the text format.
    code, out, _ = invoke("dags", "--format", "github")
    assert code == 1
    assert_inert(out, 1)
    assert out.startswith(
        "::error title=DRL101,file=dags/x%0A%3A%3Aerror file=a.py%3A%3Aforged%0D\\x1b[31m"
        "\\x1b[2J%250A\\u202e\\u2028y.py,line=4,col=5::DRL101 "
    )
    data = out.split("::", 2)[2]
    assert "x%0A::error file=a.py::forged%0D\\x1b[31m" in data


def test_json_format_keeps_names_exactly(hostile_repo: Path) -> None:
    code, out, _ = invoke("dags", "--format", "json")
    assert code == 1
    assert_inert(out, out.count("\n"))  # only json's own line breaks
    [item] = json.loads(out)
    assert item["file"] == f"dags/{HOSTILE}.py"
    assert HOSTILE in item["message"]


def test_sarif_format_keeps_names_exactly_in_percent_encoded_uris(hostile_repo: Path) -> None:
    code, out, _ = invoke("dags", "--format", "sarif")
    assert code == 1
    assert out.isascii()  # every control character is a JSON \u escape
    [result] = json.loads(out)["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert "\n" not in uri and "%0A" in uri
    assert unquote(uri) == f"dags/{HOSTILE}.py"
    assert HOSTILE in result["message"]["text"]


def test_routes_table_and_json(hostile_repo: Path) -> None:
    _, table, _ = invoke("routes", "dags")
    row = table.splitlines()[1]
    assert row.startswith("dags/x\\n::error file=a.py::forged")
    assert_inert(table, len(table.splitlines()))
    _, document, _ = invoke("routes", "dags", "--format", "json")
    assert json.loads(document)["tasks"][0]["task_id"] == HOSTILE


def test_error_messages_on_stderr(hostile_repo: Path) -> None:
    code, _, err = invoke(f"missing{HOSTILE}")
    assert code == 2
    assert_inert(err, 1)
    assert err.startswith("dagroute-lint: no such file or directory: missingx\\n::error")


@pytest.mark.parametrize("formatter", [format_text, format_github])
def test_formatters_on_hostile_messages(formatter: object) -> None:
    diagnostics = [Diagnostic(f"a{HOSTILE}.py", 1, 1, "DRL101", HOSTILE) for _ in range(3)]
    output = formatter(diagnostics)  # type: ignore[operator]
    assert_inert(output, 3)
