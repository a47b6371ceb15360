"""``# noqa`` codes match whatever their case, as flake8 and ruff match them, and only their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linting import IMPORTS, lint


def unserved(comment: str) -> str:
    return (
        IMPORTS
        + f"""
with DAG("noqa"):
    BashOperator(task_id="t", bash_command="x", queue="reports")  {comment}
"""
    )


@pytest.mark.parametrize(
    "comment",
    [
        "# noqa: DRL101",
        "# noqa: drl101",
        "# noqa: Drl101",
        "# NOQA: drl101",
        "# noqa:drl101",
        "# noqa: E501, drl101",
        "# noqa",
        "# NoQA",
    ],
)
def test_suppressed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, comment: str) -> None:
    outcome = lint(tmp_path, unserved(comment), monkeypatch)
    assert outcome.diagnostics == []
    assert outcome.exit_code == 0


@pytest.mark.parametrize("comment", ["# noqa: drl102", "# noqa: drl1010", "# no qa: DRL101"])
def test_not_suppressed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, comment: str) -> None:
    outcome = lint(tmp_path, unserved(comment), monkeypatch)
    assert [(d["code"], d["line"]) for d in outcome.diagnostics] == [("DRL101", 5)]
    assert outcome.exit_code == 1


def test_a_file_marker_in_any_case_silences_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = lint(tmp_path, "# DAGROUTE-LINT: NOQA\n" + unserved(""), monkeypatch)
    assert outcome.diagnostics == []
