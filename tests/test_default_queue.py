"""A task without a queue, or with ``queue=None``, goes to the deployment's default queue.

``queue=None`` is dropped when the DAG is serialized, so the scheduler sends the task to
``[operators] default_queue`` (the inventory's ``default_queue``), which need not be "default".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.linting import IMPORTS, MAIN_QUEUE, invoke, lint

# The same deployment, but its only worker listens on Airflow's built-in queue name.
DEFAULT_ONLY = MAIN_QUEUE.replace('queues = ["main"]', 'queues = ["default"]')

TASKS = (
    IMPORTS
    + """
with DAG("queues"):
    BashOperator(task_id="none", bash_command="x", queue=None)
    BashOperator(task_id="absent", bash_command="x")
"""
)


def test_both_reach_the_worker_of_the_default_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = lint(tmp_path, TASKS, monkeypatch)
    assert outcome.diagnostics == []
    assert outcome.exit_code == 0


def test_both_are_reported_when_no_worker_serves_the_default_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = lint(tmp_path, TASKS, monkeypatch, inventory=DEFAULT_ONLY)
    assert [(d["code"], d["line"]) for d in outcome.diagnostics] == [
        ("DRL101", 5),
        ("DRL101", 6),
    ]
    for diagnostic in outcome.diagnostics:
        assert "routes to queue 'main', but" in diagnostic["message"]
        assert "(served: default)" in diagnostic["message"]
    assert outcome.exit_code == 1


def test_routes_keep_the_explicit_none_and_count_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lint(tmp_path, TASKS, monkeypatch)
    outcome = invoke(
        tmp_path,
        ["routes", "dags", "--inventory", "dagroute.toml", "--no-cache", "--format", "json"],
        monkeypatch,
    )
    table = json.loads(outcome.stdout)
    assert {task["task_id"]: task["queue"] for task in table["tasks"]} == {
        "none": None,
        "absent": "main",
    }
