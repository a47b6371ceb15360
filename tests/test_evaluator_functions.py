"""Functions, classes and partials of the file, followed as Python runs them."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_repo, routes, value

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup
"""


def unresolved(task: object, field: str) -> str:
    resolved = task.fields[field]  # type: ignore[attr-defined]
    assert not resolved.known, f"{field} resolved to {resolved.value!r}"
    return str(resolved.reason)


def test_operator_factory_with_bound_arguments(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
def slack_op(dag, tid, q="manager"):
    return BashOperator(task_id=f"slack_{tid}", bash_command="x", queue=q, dag=dag)

d = DAG("d")
first = slack_op(d, "a")
for name in ["b", "c"]:
    slack_op(d, name, q="nfs")
with DAG("e"):
    slack_op(None, "inside")
""",
    )
    assert value(tasks["slack_a"], "queue") == "manager"
    assert value(tasks["slack_b"], "queue") == "nfs"
    assert value(tasks["slack_c"], "queue") == "nfs"
    assert tasks["slack_a"].dag_id == "d"
    assert tasks["slack_inside"].dag_id == "e"


def test_helper_adds_tasks_to_a_passed_group_and_dag_factory(tmp_path: Path) -> None:
    source = (
        HEADER
        + """
def add_checks(group, names):
    for name in names:
        BashOperator(task_id=name, bash_command="x", task_group=group, pool="checks")

def make_dag(name):
    with DAG(f"dag_{name}", default_args=default_args(queue=name)) as d:
        with TaskGroup("g") as g:
            add_checks(g, ["c1"])
    return d

BASE = {"pool_slots": 2}

def default_args(**kw):
    a = BASE.copy()
    a.update(kw)
    return a

for name in ["x", "y"]:
    globals()[name] = make_dag(name)
"""
    )
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None)
    seen = {(task.dag_id, task.task_id): task for task in report.tasks}
    assert sorted(seen) == [("dag_x", "g.c1"), ("dag_y", "g.c1")]
    for (dag_id, _), task in seen.items():
        assert value(task, "pool") == "checks"
        assert value(task, "pool_slots") == 2
        assert value(task, "queue") == dag_id.removeprefix("dag_")


def test_global_assignment_in_a_called_function(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
QUEUE = "before"

def configure():
    global QUEUE
    QUEUE = "after"

configure()
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE)
""",
    )
    assert value(tasks["t"], "queue") == "after"


def test_function_returning_under_a_condition(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import os

def pick():
    if os.getenv("BIG"):
        return "big"
    return "small"

def fixed(flag=False):
    if flag:
        return "big"
    return "small"

with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=pick())
    BashOperator(task_id="u", bash_command="x", queue=fixed())
""",
    )
    assert "conditions" in unresolved(tasks["t"], "queue")
    assert value(tasks["u"], "queue") == "small"


def test_functools_partial_of_an_operator(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import functools
from functools import partial

Reports = functools.partial(BashOperator, queue="reports", pool="p")
Imports = partial(BashOperator, queue="imports")
with DAG("d"):
    Reports(task_id="r", bash_command="x")
    Imports(task_id="i", bash_command="x", queue="override")
""",
    )
    assert value(tasks["r"], "queue") == "reports"
    assert value(tasks["r"], "pool") == "p"
    assert value(tasks["i"], "queue") == "override"
    assert tasks["r"].operator == "airflow.providers.standard.operators.bash.BashOperator"


def test_operator_subclass_that_routes_itself(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
class ReportOperator(BashOperator):
    def __init__(self, **kwargs):
        kwargs.setdefault("queue", "reports")
        super().__init__(**kwargs)

class K8sOperator(BashOperator):
    def __init__(self, executor="KubernetesExecutor", **kwargs):
        super().__init__(executor=executor, **kwargs)

class Plain(BashOperator):
    template_fields = ("bash_command",)

with DAG("d", default_args={"queue": "dag_queue"}):
    ReportOperator(task_id="r", bash_command="x")
    K8sOperator(task_id="k", bash_command="x")
    Plain(task_id="p", bash_command="x")
""",
    )
    # The subclass's __init__ runs: its setdefault beats the DAG's default_args (``queue`` is
    # not a parameter of its signature, so Airflow does not fill it from them there).
    assert value(tasks["r"], "queue") == "reports"
    assert value(tasks["k"], "executor") == "KubernetesExecutor"
    assert value(tasks["k"], "queue") == "dag_queue"
    assert value(tasks["p"], "queue") == "dag_queue"


def test_subclass_in_another_module(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from plugins_lib.ops import ReportOperator
with DAG("d"):
    ReportOperator(task_id="r", bash_command="x")
""",
        extra={
            "dags/plugins_lib/__init__.py": "",
            "dags/plugins_lib/ops.py": """
from airflow.providers.standard.operators.bash import BashOperator

class ReportOperator(BashOperator):
    def __init__(self, **kwargs):
        super().__init__(queue="reports", **kwargs)
""",
        },
    )
    assert value(tasks["r"], "queue") == "reports"
    assert tasks["r"].operator == "plugins_lib.ops.ReportOperator"


def test_dataclasses_and_namedtuples_are_not_operators(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from dataclasses import dataclass
from typing import NamedTuple

@dataclass(frozen=True)
class Job:
    task_id: str
    queue: str

class Spec(NamedTuple):
    task_id: str

class Holder:
    pass

with DAG("d"):
    for job in [Job(task_id="a", queue="q"), Job(task_id="b", queue="q")]:
        pass
    Spec(task_id="s")
    Holder(task_id="h")
    BashOperator(task_id="real", bash_command="x")
""",
    )
    assert sorted(tasks) == ["real"]


def test_class_constants_nested_classes_and_enums(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
import enum
from common.queues import QUEUE

class POOLS:
    class HEAVY:
        NAME = "heavy"

class Executor(enum.Enum):
    K8S = "KubernetesExecutor"

with DAG("d"):
    BashOperator(
        task_id="t",
        bash_command="x",
        queue=QUEUE.SNAP,
        pool=POOLS.HEAVY.NAME,
        executor=Executor.K8S.value,
    )
    BashOperator(task_id="u", bash_command="x", executor=Executor.K8S)
""",
        extra={
            "dags/common/__init__.py": "",
            "dags/common/queues.py": 'class QUEUE:\n    SNAP = "snap"\n',
        },
    )
    assert value(tasks["t"], "queue") == "snap"
    assert value(tasks["t"], "pool") == "heavy"
    assert value(tasks["t"], "executor") == "KubernetesExecutor"
    assert unresolved(tasks["u"], "executor")
