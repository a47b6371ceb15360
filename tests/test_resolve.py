"""Routing precedence and static folding, as Airflow resolves them (airflow-semantics §1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import lint_repo, routes, value

HEADER = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup, task
"""


def test_precedence_kwarg_then_task_then_groups_then_dag(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p", default_args={"queue": "dag_q", "pool": "dag_pool", "pool_slots": 3}):
    with TaskGroup("outer", default_args={"queue": "outer_q", "pool": "outer_pool"}):
        with TaskGroup("inner", default_args={"queue": "inner_q"}):
            BashOperator(task_id="kw", bash_command="x", queue="kw_q")
            BashOperator(task_id="own", bash_command="x", default_args={"queue": "own_q"})
            BashOperator(task_id="grp", bash_command="x")
    BashOperator(task_id="dag_level", bash_command="x")
""",
    )
    assert value(tasks["outer.inner.kw"], "queue") == "kw_q"
    assert value(tasks["outer.inner.own"], "queue") == "own_q"
    grp = tasks["outer.inner.grp"]
    assert value(grp, "queue") == "inner_q"
    assert value(grp, "pool") == "outer_pool"  # key by key: inner has no pool
    assert value(grp, "pool_slots") == 3
    assert grp.fields["queue"].origin == "TaskGroup 'inner' default_args"
    assert value(tasks["dag_level"], "queue") == "dag_q"


def test_builtin_defaults(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p"):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    task = tasks["t"]
    assert (value(task, "queue"), value(task, "pool"), value(task, "pool_slots")) == (
        "default",
        "default_pool",
        1,
    )
    assert value(task, "executor") is None
    assert not task.fields["queue"].explicit


def test_explicit_queue_none_blocks_default_args(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p", default_args={"queue": "dag_q"}):
    BashOperator(task_id="t", bash_command="x", queue=None)
""",
    )
    assert value(tasks["t"], "queue") is None
    assert tasks["t"].unresolved == ()


def test_task_stub_ignores_default_args_queue(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p", default_args={"queue": "dag_q"}):
    @task.stub
    def remote(): ...
    remote()
""",
    )
    assert value(tasks["remote"], "queue") is None


def test_operator_attached_later_gets_no_default_args(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
late = BashOperator(task_id="late", bash_command="x")
d = DAG("p", default_args={"queue": "dag_q"})
d.add_task(late)
""",
    )
    assert tasks["late"].dag_id == "p"
    assert value(tasks["late"], "queue") == "default"


def test_assignment_after_construction_wins(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p"):
    t = BashOperator(task_id="t", bash_command="x", queue="a")
    t.queue = "b"
""",
    )
    assert value(tasks["t"], "queue") == "b"


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ('f"{PREFIX}_q"', "team_q"),
        ('PREFIX + "_q"', "team_q"),
        ('"%s_q" % PREFIX', "team_q"),
        ('"{}_q".format(PREFIX)', "team_q"),
        ('"{p}_q".format(p=PREFIX)', "team_q"),
        ('BASE["queue"]', "base_q"),
        ('dict(BASE, queue="d")["queue"]', "d"),
        ('{**BASE, "queue": "m"}["queue"]', "m"),
        ('(BASE | {"queue": "o"})["queue"]', "o"),
    ],
)
def test_strings_and_dicts_built_from_constants(
    tmp_path: Path, expression: str, expected: str
) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + f"""
PREFIX = "team"
BASE = {{"queue": "base_q"}}
with DAG("p"):
    BashOperator(task_id="t", bash_command="x", queue={expression})
""",
    )
    assert value(tasks["t"], "queue") == expected


@pytest.mark.parametrize(
    ("default_args", "expected"),
    [
        ("BASE", "base_q"),
        ('dict(BASE, queue="d")', "d"),
        ('{**BASE, "queue": "m"}', "m"),
        ('{**unknown_defaults(), "queue": "m"}', "m"),
        ('BASE | {"pool": "p"}', "base_q"),
    ],
)
def test_default_args_merges(tmp_path: Path, default_args: str, expected: str) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + f"""
BASE = {{"queue": "base_q"}}
with DAG("p", default_args={default_args}):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert value(tasks["t"], "queue") == expected


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ('os.environ["Q"]', "environment variable"),
        ('os.getenv("Q")', "environment variable"),
        ("compute_queue()", "environment variable"),
        ("imported_queue()", "helpers.imported_queue()"),
        ('"a" if os.getenv("X") else "b"', "conditional"),
    ],
)
def test_dynamic_values_are_unresolved_with_a_reason(
    tmp_path: Path, expression: str, reason: str
) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + f"""
from helpers import imported_queue
def compute_queue():
    return os.environ.get("Q", "q")
with DAG("p"):
    BashOperator(task_id="t", bash_command="x", queue={expression})
""",
    )
    field = tasks["t"].fields["queue"]
    assert not field.known and field.value is None
    assert reason in field.reason
    assert ("queue", field.reason) in tasks["t"].unresolved


def test_unknown_default_args_make_every_routing_field_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p", default_args=load_defaults()):
    BashOperator(task_id="t", bash_command="x", pool="p")
""",
    )
    task = tasks["t"]
    assert not task.fields["queue"].known
    assert value(task, "pool") == "p"


def test_loop_over_literal_list_creates_each_task(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p"):
    for q in ["a", "b"]:
        BashOperator(task_id=f"run_{q}", bash_command="x", queue=q)
    for i in range(2):
        BashOperator(task_id=f"n{i}", bash_command="x")
""",
    )
    assert {name: value(task, "queue") for name, task in tasks.items()} == {
        "run_a": "a",
        "run_b": "b",
        "n0": "default",
        "n1": "default",
    }


def test_cross_module_constants(tmp_path: Path) -> None:
    files = {
        "dags/common/__init__.py": "from .routing import REPORTS as REEXPORTED\n",
        "dags/common/routing.py": 'REPORTS = "reports"\nDEFAULTS = {"queue": REPORTS}\n',
    }
    tasks = routes(
        tmp_path,
        HEADER
        + """
from common.routing import DEFAULTS, REPORTS
import common.routing as r
from common import REEXPORTED
with DAG("p", default_args=DEFAULTS):
    BashOperator(task_id="a", bash_command="x")
    BashOperator(task_id="b", bash_command="x", queue=r.REPORTS + "_2")
    BashOperator(task_id="c", bash_command="x", queue=REEXPORTED)
    BashOperator(task_id="d", bash_command="x", queue=REPORTS)
""",
        extra=files,
    )
    assert [value(tasks[name], "queue") for name in "abcd"] == [
        "reports",
        "reports_2",
        "reports",
        "reports",
    ]


def test_constant_missing_from_repository_is_unresolved(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from elsewhere.settings import QUEUE
with DAG("p"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
    )
    assert "not defined in the repository" in tasks["t"].fields["queue"].reason


def test_context_files_are_read_when_only_one_file_is_passed(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/common/routing.py": 'Q = "imports"\n',
            "dags/dag.py": HEADER
            + """
from common.routing import Q
with DAG("p"):
    BashOperator(task_id="t", bash_command="x", queue=Q)
""",
        },
        inventory=None,
        paths=[str(tmp_path / "dags" / "dag.py")],
    )
    assert report.files == 1
    (task,) = report.tasks
    assert value(task, "queue") == "imports"


def test_taskflow_repeated_calls_get_suffixes(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p"):
    @task
    def step():
        return 1
    step()
    step()
    step.override(queue="q")()
""",
    )
    assert set(tasks) == {"step", "step__1", "step__2"}
    assert value(tasks["step__2"], "queue") == "q"


def test_mapped_routing_comes_from_partial_and_override(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("p"):
    BashOperator.partial(task_id="m", queue="mq").expand(bash_command=["a", "b"])
    @task
    def add(x, queue):
        return x
    add.override(queue="oq").partial(queue="data").expand(x=[1, 2])
""",
    )
    assert value(tasks["m"], "queue") == "mq"
    assert tasks["m"].task.mapped
    assert value(tasks["add"], "queue") == "oq"
    assert tasks["add"].task.partial_keys == ("queue",)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("2 * 2", 4),
        ("SLOTS * 3", 6),
        ('"ab" * 3', None),  # strings are never repeated: hostile input could ask for gigabytes
        ("10 ** 9 * 10 ** 9", None),
        ("1_000_000_000 * 1_000_000_000", None),
        ("True * 2", None),
    ],
)
def test_multiplication_folds_numbers_only(
    tmp_path: Path, expression: str, expected: int | None
) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + f"""
SLOTS = 2
with DAG("p"):
    BashOperator(task_id="t", bash_command="x", pool_slots={expression})
""",
    )
    field = tasks["t"].fields["pool_slots"]
    assert (field.value if field.known else None) == expected
    assert field.known is (expected is not None)


def test_timedelta_folds_for_durations_and_is_no_routing_value(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import datetime
from datetime import timedelta
from airflow.providers.standard.sensors.python import PythonSensor
with DAG("p"):
    PythonSensor(task_id="s", python_callable=print, timeout=timedelta(1, hours=2, minutes=0.5))
    PythonSensor(task_id="m", python_callable=print, timeout=datetime.timedelta(weeks=1))
    PythonSensor(task_id="bad", python_callable=print, timeout=timedelta(hours="2"))
    PythonSensor(task_id="huge", python_callable=print, timeout=timedelta(days=999_999_999_999))
    BashOperator(task_id="q", bash_command="x", queue=timedelta(1))
""",
    )
    timeouts = {
        task_id: task.sensor.timeout.value if task.sensor is not None else None
        for task_id, task in tasks.items()
    }
    assert timeouts == {"s": 93630.0, "m": 604800.0, "bad": None, "huge": None, "q": None}
    queue = tasks["q"].fields["queue"]
    assert (queue.known, queue.reason) == (False, "a timedelta, which is not a valid queue")


def test_augmented_assignments_fold_like_their_operators(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
QUEUE = "team"
QUEUE += "_etl"
TEMPLATE = "pool_%s"
TEMPLATE %= "a"
SLOTS = 2
SLOTS *= 3
ARGS = {"queue": "base"}
ARGS |= {"queue": "merged"}
DYNAMIC = "x"
DYNAMIC -= "y"
with DAG("aug"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE, pool=TEMPLATE, pool_slots=SLOTS)
    BashOperator(task_id="u", bash_command="x", **ARGS)
    BashOperator(task_id="v", bash_command="x", queue=DYNAMIC)
""",
    )
    t = tasks["t"]
    assert (value(t, "queue"), value(t, "pool"), value(t, "pool_slots")) == (
        "team_etl",
        "pool_a",
        6,
    )
    assert value(tasks["u"], "queue") == "merged"
    assert "augmented assignment" in dict(tasks["v"].unresolved)["queue"]
