"""Attributes assigned to tasks after they are built: exact where the walk knows which task and
that the assignment runs, unresolved with the reason everywhere else."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import routes, value

HEADER = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
"""


def unresolved(task: object, field: str) -> str:
    resolved = task.fields[field]  # type: ignore[attr-defined]
    assert not resolved.known, f"{field} resolved to {resolved.value!r}"
    return str(resolved.reason)


def test_assignment_under_an_undecided_condition(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    t = BashOperator(task_id="t", bash_command="x", queue="a")
    if os.getenv("BIG"):
        t.queue = "big"
    if os.getenv("BIG"):
        inner = BashOperator(task_id="inner", bash_command="x", queue="a")
        inner.pool = "p"
""",
    )
    assert "condition" in unresolved(tasks["t"], "queue")
    assert value(tasks["inner"], "pool") == "p"


def test_loop_over_dag_tasks(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d") as d:
    BashOperator(task_id="a", bash_command="x")
    BashOperator(task_id="b", bash_command="x")
for t in d.tasks:
    t.queue = "all"
with DAG("other"):
    BashOperator(task_id="c", bash_command="x")
""",
    )
    assert value(tasks["a"], "queue") == "all"
    assert value(tasks["b"], "queue") == "all"
    assert value(tasks["c"], "queue") == "default"


def test_task_picked_by_index_and_setattr(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d") as d:
    a = BashOperator(task_id="a", bash_command="x")
    BashOperator(task_id="b", bash_command="x")
d.tasks[0].pool = "first"
setattr(a, "pool_slots", 3)
""",
    )
    assert value(tasks["a"], "pool") == "first"
    assert value(tasks["a"], "pool_slots") == 3
    assert value(tasks["b"], "pool") == "default_pool"


def test_store_on_an_unknown_object_may_reach_any_task(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d") as d:
    BashOperator(task_id="a", bash_command="x")
d.get_task("a").queue = "q"
with DAG("e"):
    BashOperator(task_id="later", bash_command="x")
""",
    )
    assert "cannot be followed" in unresolved(tasks["a"], "queue")
    assert value(tasks["later"], "queue") == "default"


def test_condition_on_a_task_attribute_is_undecided(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d") as d:
    BashOperator(task_id="a", bash_command="x")
for t in d.tasks:
    if t.task_id.startswith("z"):
        t.queue = "z"
""",
    )
    assert unresolved(tasks["a"], "queue")
