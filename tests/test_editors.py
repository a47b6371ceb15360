"""Editor use: a buffer on stdin linted as a file, and the snippets of docs/editors.md at work.

The problem-matcher patterns are read from docs/editors.md itself, so the documentation cannot
drift from the output: the VS Code regexp with Python's ``re``, the Vim ``errorformat`` both
through a faithful translation and through the real Vim when it is installed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import dag_repository, run_command
from tests.test_cli import invoke
from tests.tools import vim

REPO = Path(__file__).resolve().parents[1]
EDITORS_PAGE = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent

REPORT = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.routing import {queue}

with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue={queue})
    BashOperator(task_id="odd", bash_command="x", executor="{executor}")
"""

Row = tuple[str, int, int, str, str]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    clean = REPORT.format(queue="IMPORTS_QUEUE", executor="CeleryExecutor")
    dag_repository(tmp_path, {"dags/report.py": clean})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def console_script(
    repo: Path, *args: str, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed ``dagroute-lint`` command, as an editor starts it."""
    return run_command([str(BIN / "dagroute-lint"), *args], repo, input)


def json_rows(*args: str, input: str | None = None) -> list[Row]:
    _, out, _ = invoke("--format", "json", *args, input=input)
    return [
        (item["file"], item["line"], item["column"], item["code"], item["message"])
        for item in json.loads(out)
    ]


# A buffer that differs from the file on disk: its queue comes from the sibling module on disk,
# and its executor name holds colons shaped like a position, to trip careless patterns.
BUFFER = REPORT.format(queue="REPORTS_QUEUE", executor="x:1:2: DRL101 y").lstrip()


def test_stdin_buffer_is_linted_as_the_named_file_with_context_from_disk(repo: Path) -> None:
    assert invoke("dags")[0] == 0  # the file on disk is clean
    # The installed command with a real pipe on stdin, as an editor runs it.
    result = console_script(
        repo, "--quiet", "-", "--stdin-filename", "dags/report.py", input=BUFFER
    )
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(" ", 2)[:2] for line in lines] == [
        ["dags/report.py:6:5:", "DRL101"],  # 'reports', read from dags/common/routing.py
        ["dags/report.py:7:5:", "DRL103"],
    ]
    assert "routes to queue 'reports'" in lines[0]
    assert "names executor 'x:1:2: DRL101 y'" in lines[1]


def test_stdin_buffer_wins_over_the_file_on_disk(repo: Path) -> None:
    (repo / "dags" / "report.py").write_text(BUFFER)  # broken on disk, fixed in the editor
    fixed = REPORT.format(queue="IMPORTS_QUEUE", executor="CeleryExecutor").lstrip()
    code, out, err = invoke("-", "--stdin-filename", "dags/report.py", input=fixed)
    assert (code, out) == (0, ""), err


def test_stdin_with_an_absolute_name_keeps_settings_by_path(repo: Path) -> None:
    absolute = str(repo / "dags" / "report.py")
    rows = json_rows("-", "--stdin-filename", absolute, input=BUFFER)
    assert [(row[0], row[3]) for row in rows] == [(absolute, "DRL101"), (absolute, "DRL103")]
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\ndags = ["dags"]\n'
        '[tool.dagroute-lint.per-file-ignores]\n"dags/report.py" = ["DRL103"]\n'
    )
    rows = json_rows("-", "--stdin-filename", absolute, input=BUFFER)
    assert [row[3] for row in rows] == ["DRL101"]


# ---- the snippets of docs/editors.md ----


def page_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", EDITORS_PAGE, flags=re.S | re.M)


def vscode_task() -> dict[str, object]:
    (block,) = [block for block in page_blocks("json") if "problemMatcher" in block]
    (task,) = json.loads(block)["tasks"]
    assert isinstance(task, dict)
    return task


def vim_snippet() -> str:
    (block,) = [block for block in page_blocks("vim") if "errorformat" in block]
    return block


def vim_errorformat() -> str:
    (value,) = re.findall(r"^setlocal errorformat=(\S+(?:\\ \S+)*)$", vim_snippet(), flags=re.M)
    return str(value).replace("\\ ", " ")  # `:set` takes a backslash-escaped space as a space


def errorformat_to_regex(errorformat: str) -> re.Pattern[str]:
    """Vim's own translation (quickfix.c, efm_to_regpat) for the items the page uses.

    ``%f`` followed by a literal character becomes ``.\\{-1,}`` + that character (shortest
    match, so a ``:`` in the message does not end the file name); ``%l`` and ``%c`` become
    ``\\d\\+``, ``%m`` ``.\\+``; the pattern is anchored at both ends.
    """
    pattern = "^"
    items = iter(re.split(r"(%.)", errorformat))
    for item in items:
        if item == "%f":
            pattern += "(?P<file>.+?)"
        elif item in ("%l", "%c"):
            pattern += "(?P<line>\\d+)" if item == "%l" else "(?P<column>\\d+)"
        elif item == "%m":
            pattern += "(?P<message>.+)"
        elif item == "%%":
            pattern += "%"
        elif item.startswith("%"):
            raise AssertionError(f"errorformat item {item} is not translated by this test")
        else:
            pattern += re.escape(item)
    return re.compile(pattern + "$")


def text_output() -> tuple[str, list[Row]]:
    """Real text output for the buffer, and what it must parse into."""
    args = ("-", "--stdin-filename", "dags/report.py")
    text = invoke("--quiet", *args, input=BUFFER)[1]
    expected = json_rows(*args, input=BUFFER)
    assert len(expected) == 2
    return text, expected


def test_vscode_problem_matcher_from_the_page_parses_real_output(repo: Path) -> None:
    matcher = vscode_task()["problemMatcher"]
    assert isinstance(matcher, dict)
    spec = matcher["pattern"]
    regexp = re.compile(spec["regexp"])  # the JavaScript pattern uses no syntax Python lacks
    assert "severity" not in matcher, "the severity comes from each line, not a fixed one"
    text, expected = text_output()
    parsed = []
    severities = []
    for line in text.splitlines():
        match = regexp.match(line)
        assert match is not None, line
        severities.append(match[spec["severity"]])
        parsed.append(
            (
                match[spec["file"]],
                int(match[spec["line"]]),
                int(match[spec["column"]]),
                match[spec["code"]],
                match[spec["message"]],
            )
        )
    assert parsed == expected
    _, out, _ = invoke("--format", "json", "-", "--stdin-filename", "dags/report.py", input=BUFFER)
    assert severities == [item["severity"] for item in json.loads(out)] == ["error", "error"]


def test_vscode_task_command_runs(repo: Path) -> None:
    task = vscode_task()
    target = str(repo / "dags" / "report.py")
    (repo / "dags" / "report.py").write_text(BUFFER)
    assert isinstance(task["args"], list)
    args = [str(arg).replace("${file}", target) for arg in task["args"]]
    result = console_script(repo, *args)
    assert result.returncode == 1
    assert [line.split(": ")[0] for line in result.stdout.splitlines()] == [
        f"{target}:6:5",
        f"{target}:7:5",
    ]


def test_vim_errorformat_from_the_page_parses_real_output(repo: Path) -> None:
    regex = errorformat_to_regex(vim_errorformat())
    text, expected = text_output()
    parsed = []
    for line in text.splitlines():
        match = regex.match(line)
        assert match is not None, line
        parsed.append((match["file"], int(match["line"]), int(match["column"]), match["message"]))
    assert parsed == [
        (f, line, col, f"{code} [error] {message}") for f, line, col, code, message in expected
    ]


def test_nvim_lint_snippet_uses_the_same_errorformat_and_a_stdin_buffer() -> None:
    (block,) = [block for block in page_blocks("lua") if "from_errorformat" in block]
    (errorformat,) = re.findall(r'from_errorformat\("([^"]+)"', block)
    assert errorformat == vim_errorformat()
    assert '"-", "--stdin-filename"' in block and "stdin = true" in block
    assert "ignore_exitcode = true" in block  # dagroute-lint exits 1 when it reports


def test_real_vim_make_with_the_page_snippet(repo: Path) -> None:
    editor = vim()
    (repo / "dags" / "report.py").write_text(BUFFER)
    snippet = repo / "snippet.vim"
    snippet.write_text(vim_snippet())
    result_file = repo / "quickfix.txt"
    collect = (
        "call writefile(map(filter(getqflist(), 'v:val.valid'), "
        '\'bufname(v:val.bufnr) . "\\t" . v:val.lnum . "\\t" . v:val.col . "\\t" . v:val.text\'), '
        f"'{result_file}')"
    )
    subprocess.run(
        [
            editor,
            "-Nu",
            "NONE",
            "-i",
            "NONE",
            "-es",
            "dags/report.py",
            "-c",
            f"source {snippet}",
            "-c",
            "silent make!",
            "-c",
            collect,
            "-c",
            "qa!",
        ],
        cwd=repo,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    rows = [line.split("\t") for line in result_file.read_text().splitlines()]
    expected = json_rows("dags/report.py")
    assert rows == [
        [f, str(line), str(col), f"{code} [error] {message}"]
        for f, line, col, code, message in expected
    ]
