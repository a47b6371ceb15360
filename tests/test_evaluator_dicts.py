"""Dicts changed after they are built: every name bound to the dict sees the change, and a change
the evaluator cannot follow makes the values unresolved instead of stale."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import routes, value

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, dag
"""


def unresolved(task: object, field: str) -> str:
    resolved = task.fields[field]  # type: ignore[attr-defined]
    assert not resolved.known, f"{field} resolved to {resolved.value!r}"
    return str(resolved.reason)


def test_item_assignment_through_an_alias_changes_the_dict(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
BASE = {"queue": "default"}
args = BASE
args["queue"] = "reports"
with DAG("d", default_args=BASE):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert value(tasks["t"], "queue") == "reports"


def test_update_setdefault_del_pop_and_in_place_union(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
BASE = {"queue": "q0", "pool": "p0", "pool_slots": 2}
args = BASE
args.update(pool="p1")
args.setdefault("queue", "ignored")
args.setdefault("executor", "CeleryExecutor")
del args["pool_slots"]
with DAG("a", default_args=BASE):
    BashOperator(task_id="t1", bash_command="x")
BASE.pop("queue")
args |= {"pool": "p2"}
with DAG("b", default_args=BASE):
    BashOperator(task_id="t2", bash_command="x")
""",
    )
    t1, t2 = tasks["t1"], tasks["t2"]
    assert value(t1, "queue") == "q0"
    assert value(t1, "pool") == "p1"
    assert value(t1, "executor") == "CeleryExecutor"
    assert value(t1, "pool_slots") == 1
    assert value(t2, "queue") == "default"
    assert value(t2, "pool") == "p2"


def test_a_dag_keeps_the_dict_it_was_given(tmp_path: Path) -> None:
    """Airflow deep-copies default_args when the DAG is built: later changes do not reach it."""
    tasks = routes(
        tmp_path,
        HEADER
        + """
ARGS = {"queue": "early"}
d = DAG("d", default_args=ARGS)
ARGS["queue"] = "late"
BashOperator(task_id="t", bash_command="x", dag=d)
""",
    )
    assert value(tasks["t"], "queue") == "early"


def test_mutation_of_an_imported_dict(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from common.args import BASE
BASE["queue"] = "mine"
with DAG("d", default_args=BASE):
    BashOperator(task_id="t", bash_command="x")
""",
        extra={
            "dags/common/__init__.py": "",
            "dags/common/args.py": 'BASE = {"queue": "x", "pool": "p"}\n',
        },
    )
    assert value(tasks["t"], "queue") == "mine"
    assert value(tasks["t"], "pool") == "p"


def test_dict_passed_to_an_unknown_call_is_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from helpers import tweak
ARGS = {"queue": "q"}
tweak(ARGS)
with DAG("d", default_args=ARGS):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert "tweak" in unresolved(tasks["t"], "queue")


def test_a_dicts_method_passed_to_an_unknown_call_is_unresolved(tmp_path: Path) -> None:
    """``tweak(ARGS.update)`` may call ``ARGS.update`` there: the dict is not known after."""
    tasks = routes(
        tmp_path,
        HEADER
        + """
from helpers import tweak
ARGS = {"queue": "q"}
tweak(ARGS.update)
with DAG("d", default_args=ARGS):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert "tweak" in unresolved(tasks["t"], "queue")


def test_nested_dict_changed_through_the_outer_name(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
CONF = {"args": {"queue": "a"}}
inner = CONF["args"]
CONF["args"]["queue"] = "b"
with DAG("d", default_args=CONF["args"]):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert value(tasks["t"], "queue") == "b"


def test_dag_default_args_changed_after_the_dag_is_built(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
d = DAG("d", default_args={"queue": "a"})
d.default_args["queue"] = "b"
BashOperator(task_id="t", bash_command="x", dag=d)
""",
    )
    assert value(tasks["t"], "queue") == "b"


def test_dag_default_args_changed_after_tasks_exist_is_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d", default_args={"queue": "a"}) as d:
    BashOperator(task_id="before", bash_command="x")
    d.default_args["queue"] = "b"
    BashOperator(task_id="after", bash_command="x")
""",
    )
    assert value(tasks["before"], "queue") == "a"
    assert value(tasks["after"], "queue") == "b"


def test_dict_mutated_between_dag_decorator_and_call(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
ARGS = {"queue": "a"}

@dag(default_args=ARGS)
def pipeline():
    BashOperator(task_id="t", bash_command="x")

ARGS["queue"] = "b"
pipeline()
""",
    )
    assert value(tasks["t"], "queue") == "b"


def test_copy_is_independent(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
BASE = {"queue": "a"}
mine = BASE.copy()
mine["queue"] = "b"
with DAG("d1", default_args=BASE):
    BashOperator(task_id="t1", bash_command="x")
with DAG("d2", default_args=mine):
    BashOperator(task_id="t2", bash_command="x")
""",
    )
    assert value(tasks["t1"], "queue") == "a"
    assert value(tasks["t2"], "queue") == "b"


def test_item_assignment_on_dicts_built_by_calls_and_unions(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
def team_args(team, pool=None):
    args = dict(owner=team)
    if pool is not None:
        args["pool"] = pool
    return args

merged = {"queue": "a"} | {"pool_slots": 2}
merged["queue"] = "b"
with DAG("d1", default_args=team_args("t", pool="p")):
    BashOperator(task_id="t1", bash_command="x")
with DAG("d2", default_args=merged):
    BashOperator(task_id="t2", bash_command="x")
""",
    )
    assert value(tasks["t1"], "pool") == "p"
    assert value(tasks["t2"], "queue") == "b"
    assert value(tasks["t2"], "pool_slots") == 2
