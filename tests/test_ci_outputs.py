"""Outputs for CI: GitHub workflow commands, GitLab Code Quality, statistics, the output file."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.github import format_github
from dagroute_lint.formatters.gitlab import format_gitlab
from tests.helpers import CELERY_K8S, write_repo
from tests.test_cli import invoke

TWO_PROBLEMS = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
    BashOperator(task_id="b", bash_command="x", queue="reports")
    BashOperator(task_id="c", bash_command="x", executor="Nope")
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, {"dags/dag.py": TWO_PROBLEMS, "dagroute.toml": CELERY_K8S})
    monkeypatch.chdir(tmp_path)
    return tmp_path


# GitHub's runner reads `::error key=value,...::data` and unescapes like this
# (actions/runner ActionCommand: %25 last, so "%253A" stays a literal "%3A").
_COMMAND = re.compile(r"^::(?P<command>\w+) (?P<properties>[^:]*)::(?P<data>.*)$")
_DATA = {"%0D": "\r", "%0A": "\n"}
_PROPERTY = {**_DATA, "%3A": ":", "%2C": ","}


def _unescape(text: str, table: dict[str, str]) -> str:
    for escaped, plain in table.items():
        text = text.replace(escaped, plain)
    return text.replace("%25", "%")


def parse_workflow_command(line: str) -> tuple[str, dict[str, str], str]:
    match = _COMMAND.match(line)
    assert match is not None, line
    properties = {}
    for pair in match["properties"].split(","):
        key, value = pair.split("=", 1)
        properties[key] = _unescape(value, _PROPERTY)
    return match["command"], properties, _unescape(match["data"], _DATA)


def test_github_commands_round_trip_hostile_paths_and_messages() -> None:
    hostile = Diagnostic(
        path="dags/a,b:c%3A.py",
        line=7,
        column=3,
        code="DRL101",
        message="queue '50%' \r\nnext::error file=x::forged, and: more",
    )
    output = format_github([hostile])
    assert output.count("\n") == 1  # one command, nothing forged on a second line
    command, properties, data = parse_workflow_command(output.rstrip("\n"))
    assert command == "error"
    assert properties == {
        "title": "DRL101",
        "file": "dags/a,b:c%3A.py",
        "line": "7",
        "col": "3",
    }
    assert data == f"DRL101 {hostile.message}"


def test_github_format_from_the_command_line(repo: Path) -> None:
    code, out, _ = invoke("dags", "--format", "github")
    assert code == 1
    parsed = [parse_workflow_command(line) for line in out.splitlines()]
    assert [(p["file"], p["line"], p["col"], p["title"]) for _, p, _ in parsed] == [
        ("dags/dag.py", "4", "5", "DRL101"),
        ("dags/dag.py", "5", "5", "DRL101"),
        ("dags/dag.py", "6", "5", "DRL103"),
    ]


def validate_code_quality(report: object) -> None:
    """The fields GitLab's Code Quality widget requires, with their types."""
    assert isinstance(report, list)
    for issue in report:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert isinstance(issue["description"], str) and issue["description"]
        assert re.fullmatch(r"DRL\d{3}", issue["check_name"])
        assert re.fullmatch(r"[0-9a-f]{32}", issue["fingerprint"])
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        location = issue["location"]
        assert set(location) == {"path", "lines"}
        assert not Path(location["path"]).is_absolute() and "\\" not in location["path"]
        assert set(location["lines"]) == {"begin"}
        assert isinstance(location["lines"]["begin"], int) and location["lines"]["begin"] >= 1
    fingerprints = [issue["fingerprint"] for issue in report]
    assert len(set(fingerprints)) == len(fingerprints)


def test_gitlab_code_quality_report(repo: Path) -> None:
    code, out, _ = invoke("dags", "--format", "gitlab")
    assert code == 1
    report = json.loads(out)
    validate_code_quality(report)
    assert [
        (i["check_name"], i["location"]["path"], i["location"]["lines"]["begin"]) for i in report
    ] == [
        ("DRL101", "dags/dag.py", 4),
        ("DRL101", "dags/dag.py", 5),
        ("DRL103", "dags/dag.py", 6),
    ]
    # Moving the code down keeps every fingerprint: GitLab must not see new problems.
    (repo / "dags" / "dag.py").write_text("\n\n" + (repo / "dags" / "dag.py").read_text())
    moved = json.loads(invoke("dags", "--format", "gitlab")[1])
    assert [i["fingerprint"] for i in moved] == [i["fingerprint"] for i in report]
    assert [i["location"]["lines"]["begin"] for i in moved] == [6, 7, 8]


def test_gitlab_identical_problems_get_distinct_fingerprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    twice = [
        Diagnostic(str(tmp_path / "dags" / "x.py"), line, 1, "DRL105", "same") for line in (3, 9)
    ]
    monkeypatch.chdir(tmp_path)
    report = json.loads(format_gitlab(twice))
    validate_code_quality(report)
    assert [i["location"]["path"] for i in report] == ["dags/x.py", "dags/x.py"]


def test_statistics_replace_the_diagnostics(repo: Path) -> None:
    code, out, _ = invoke("dags", "--statistics")
    assert code == 1
    # Both DRL101 reports are for one queue: the row under the rule's says so.
    assert out == (
        "2\tDRL101\tunserved-queue\n2\t      \t  queue 'reports'\n1\tDRL103\tunknown-executor\n"
    )
    code, out, _ = invoke("dags", "--statistics", "--format", "json")
    assert json.loads(out) == [
        {
            "code": "DRL101",
            "name": "unserved-queue",
            "count": 2,
            "causes": [{"cause": "queue 'reports'", "count": 2}],
        },
        {"code": "DRL103", "name": "unknown-executor", "count": 1},
    ]
    assert invoke("dags", "--statistics", "--exit-zero")[0] == 0


def test_statistics_in_other_formats_is_a_usage_error(repo: Path) -> None:
    code, out, err = invoke("dags", "--statistics", "--format", "github")
    assert (code, out) == (2, "")
    assert "--statistics prints text or json, not github" in err


def test_output_file_is_replaced_whole(repo: Path) -> None:
    target = repo / "report.json"
    target.write_text("old report\n")
    target.chmod(0o640)
    with target.open() as reader:  # a reader of the old report keeps a complete old report
        code, out, _ = invoke("dags", "--format", "json", "--output-file", str(target))
        assert reader.read() == "old report\n"
    assert (code, out) == (1, "")
    assert len(json.loads(target.read_text())) == 3
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    left = sorted(path.name for path in repo.iterdir() if path.name != ".dagroute_cache")
    assert left == ["dagroute.toml", "dags", "report.json"]


def test_new_output_file_gets_the_umask_mode(repo: Path) -> None:
    previous = os.umask(0o022)
    try:
        assert invoke("dags", "--output-file", "new.txt")[0] == 1
    finally:
        os.umask(previous)
    assert stat.S_IMODE((repo / "new.txt").stat().st_mode) == 0o644


def test_output_file_in_a_missing_folder_creates_it_as_ruff_does(repo: Path) -> None:
    code, _, _ = invoke("dags", "--output-file", "missing/deeper/out.txt")
    assert code == 1
    assert (repo / "missing/deeper/out.txt").read_text().startswith("dags/dag.py:4:5: DRL101")


def test_unwritable_output_file_is_a_clear_error(repo: Path) -> None:
    (repo / "blocker").write_text("a file, not a folder\n")
    code, _, err = invoke("dags", "--output-file", "blocker/out.txt")
    assert code == 2
    assert "cannot write blocker/out.txt: " in err
    assert "Traceback" not in err
