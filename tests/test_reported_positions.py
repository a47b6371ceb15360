"""Every output format reports a task at the 1-based line and column where its call starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.linting import IMPORTS, lint

SOURCE = (
    IMPORTS
    + """
with DAG("positions"):
    BashOperator(task_id="indented", bash_command="x", queue="reports")
    named = BashOperator(task_id="named", bash_command="x", queue="reports")
"""
)


def call_positions() -> list[tuple[int, int]]:
    """Where each ``BashOperator(`` call starts, counted from the text: lines and columns from 1."""
    found = []
    for number, line in enumerate(SOURCE.splitlines(), start=1):
        column = line.find("BashOperator(")
        if column >= 0:
            found.append((number, column + 1))
    return found


def test_the_expected_positions_are_where_the_calls_are() -> None:
    assert call_positions() == [(5, 5), (6, 13)]


def test_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = lint(tmp_path, SOURCE, monkeypatch)
    assert [(d["line"], d["column"]) for d in outcome.diagnostics] == call_positions()
    assert outcome.codes() == ["DRL101", "DRL101"]


def test_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = lint(tmp_path, SOURCE, monkeypatch, output="text")
    prefixes = [line.split(": ", 1)[0] for line in outcome.stdout.splitlines()]
    assert prefixes == [f"dags/dag.py:{line}:{column}" for line, column in call_positions()]


def test_sarif_regions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = lint(tmp_path, SOURCE, monkeypatch, output="sarif")
    (run,) = json.loads(outcome.stdout)["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    regions = [result["locations"][0]["physicalLocation"]["region"] for result in run["results"]]
    assert regions == [
        {"startLine": line, "startColumn": column} for line, column in call_positions()
    ]


def test_sarif_columns_count_code_points_not_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = SOURCE.replace("    named = ", '    é = "日本"; named = ')
    outcome = lint(tmp_path, source, monkeypatch, output="sarif")
    (run,) = json.loads(outcome.stdout)["runs"]
    region = run["results"][1]["locations"][0]["physicalLocation"]["region"]
    line = source.splitlines()[region["startLine"] - 1]
    assert line[region["startColumn"] - 1 :].startswith("BashOperator(")
    assert region == {"startLine": 6, "startColumn": 23}


def test_github_annotations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = lint(tmp_path, SOURCE, monkeypatch, output="github")
    places = [line.split("::")[1] for line in outcome.stdout.splitlines()]
    assert places == [
        f"error title=DRL101,file=dags/dag.py,line={line},col={column}"
        for line, column in call_positions()
    ]


def test_gitlab_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = lint(tmp_path, SOURCE, monkeypatch, output="gitlab")
    locations = [issue["location"] for issue in json.loads(outcome.stdout)]
    assert locations == [
        {"path": "dags/dag.py", "lines": {"begin": line}} for line, _ in call_positions()
    ]
