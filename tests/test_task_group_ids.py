"""Task ids under TaskGroups: prefixed as ``TaskGroup.child_id`` prefixes them, or unknown.

An id is reported only when every group id and ``prefix_group_id`` on the way to the DAG is
known: a task under a group whose id comes from the environment has an id nobody can name
before the file runs, and must not be given a guessed one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.linting import invoke

DAG = """\
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup

with DAG("groups"):
    with TaskGroup("a"):
        with TaskGroup("b"):
            BashOperator(task_id="nested", bash_command="x")
    with TaskGroup("c", prefix_group_id=False):
        BashOperator(task_id="unprefixed", bash_command="x")
        with TaskGroup("d"):
            BashOperator(task_id="under_unprefixed", bash_command="x")
    with TaskGroup("e"):
        with TaskGroup("f", prefix_group_id=False):
            BashOperator(task_id="inner_unprefixed", bash_command="x")
    with TaskGroup(os.environ["G"]):
        BashOperator(task_id="dynamic_group", bash_command="x")
        with TaskGroup("h"):
            BashOperator(task_id="dynamic_parent", bash_command="x")
    with TaskGroup("i", prefix_group_id=os.environ["P"]):
        BashOperator(task_id="dynamic_flag", bash_command="x")
    with TaskGroup(os.environ["G"], prefix_group_id=False):
        BashOperator(task_id="dynamic_but_unprefixed", bash_command="x")
"""

UNKNOWN = "the id or prefix_group_id of an enclosing TaskGroup cannot be known statically"


def test_task_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(DAG, encoding="utf-8")
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    tasks = json.loads(outcome.stdout)["tasks"]
    assert [(task["line"], task["task_id"]) for task in tasks] == [
        (9, "a.b.nested"),
        (11, "unprefixed"),
        (13, "d.under_unprefixed"),
        (16, "inner_unprefixed"),
        (18, None),
        (20, None),
        (22, None),
        (24, "dynamic_but_unprefixed"),
    ]
    for task in tasks:
        if task["task_id"] is None:
            assert task["unresolved"] == ["task_id"]
            assert task["reasons"] == {"task_id": UNKNOWN}
        else:
            assert task["unresolved"] == []


def test_a_task_group_function_called_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``@task_group`` suffixes a repeated group id (``grp__1``), and its tasks follow it."""
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG, task_group\n\n"
        "@task_group\n"
        "def grp():\n"
        '    BashOperator(task_id="t", bash_command="x")\n\n'
        'with DAG("groups"):\n'
        "    grp()\n"
        "    grp()\n",
        encoding="utf-8",
    )
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    tasks = json.loads(outcome.stdout)["tasks"]
    assert [task["task_id"] for task in tasks] == ["grp.t", "grp__1.t"]
