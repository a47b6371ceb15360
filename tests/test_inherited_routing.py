"""Routing inherited from ``default_args`` (of the DAG or a TaskGroup) is checked like its own.

Airflow applies ``default_args`` to every operator that does not set the key itself, so a queue,
executor or pool that arrives that way decides dispatch exactly as if the task had written it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linting import IMPORTS, MAIN_QUEUE, lint

WITH_POOLS = MAIN_QUEUE + "\n[pools]\nbig = 4\n"

GROUP_IMPORT = "from airflow.sdk import TaskGroup\n"


def reported(outcome_diagnostics: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    return [(d["code"], d["line"], d["column"]) for d in outcome_diagnostics]


def test_queue_from_dag_default_args(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        IMPORTS
        + """
with DAG("inherits", default_args={"queue": "reports"}):
    BashOperator(task_id="inherited", bash_command="x")
    BashOperator(task_id="own", bash_command="x", queue="main")
"""
    )
    outcome = lint(tmp_path, source, monkeypatch)
    assert reported(outcome.diagnostics) == [("DRL101", 5, 5)]
    assert outcome.diagnostics[0]["message"].startswith(
        "task 'inherited' in dag 'inherits' routes to queue 'reports', but no CeleryExecutor "
        "worker serves it (served: main)"
    )


def test_queue_from_task_group_default_args(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = (
        IMPORTS
        + GROUP_IMPORT
        + """
with DAG("grouped", default_args={"queue": "main"}):
    with TaskGroup("grp", default_args={"queue": "reports"}):
        BashOperator(task_id="inner", bash_command="x")
    BashOperator(task_id="outer", bash_command="x")
"""
    )
    outcome = lint(tmp_path, source, monkeypatch)
    assert reported(outcome.diagnostics) == [("DRL101", 7, 9)]
    assert "task 'grp.inner'" in outcome.diagnostics[0]["message"]


def test_served_default_args_queue_is_fine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        IMPORTS
        + """
with DAG("inherits", default_args={"queue": "main"}):
    BashOperator(task_id="inherited", bash_command="x")
"""
    )
    assert lint(tmp_path, source, monkeypatch).diagnostics == []


def test_executor_from_default_args(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        IMPORTS
        + """
with DAG("inherits", default_args={"executor": "KubernetesExecutor"}):
    BashOperator(task_id="inherited", bash_command="x")
"""
    )
    outcome = lint(tmp_path, source, monkeypatch)
    assert reported(outcome.diagnostics) == [("DRL103", 5, 5)]
    assert (
        "names executor 'KubernetesExecutor' (DAG default_args)"
        in (outcome.diagnostics[0]["message"])
    )


def test_pool_from_default_args(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        IMPORTS
        + """
with DAG("inherits", default_args={"pool": "tiny", "pool_slots": 8}):
    BashOperator(task_id="unknown", bash_command="x")
    BashOperator(task_id="too_big", bash_command="x", pool="big")
"""
    )
    outcome = lint(tmp_path, source, monkeypatch, inventory=WITH_POOLS)
    assert reported(outcome.diagnostics) == [("DRL301", 5, 5), ("DRL302", 6, 5)]
    assert "uses pool 'tiny' (DAG default_args)" in outcome.diagnostics[0]["message"]
    assert (
        "asks for 8 slots (DAG default_args) of pool 'big', which has only 4"
        in (outcome.diagnostics[1]["message"])
    )
