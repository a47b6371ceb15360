"""The keywords a task is given, as the rules about argument values see them.

Each setting says where it was written: an attribute assigned after construction, the call's
own keywords (those a repository subclass adds itself are placed at the call), or one level of
``default_args``; a task's own ``default_args`` is such a level, not a keyword to judge, and each
task gets the ``default_args`` it was built with.
"""

from __future__ import annotations

from dagroute_lint.diagnostics import Diagnostic
from tests.helpers import CELERY_K8S, lint_source

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
"""


def found(source: str, code: str) -> list[Diagnostic]:
    return lint_source(HEADER + source, inventory=CELERY_K8S, select=(code,))


def test_executor_config_assigned_after_construction_is_judged_as_an_assignment() -> None:
    """The attribute wins over everything (§1.1), and CeleryExecutor ignores it all the same."""
    diagnostics = found(
        """
with DAG("reports"):
    build = BashOperator(task_id="build", bash_command="x")
    build.executor_config = {"pod_override": None}
""",
        "DRL501",
    )
    assert [(d.line, d.column, d.message) for d in diagnostics] == [
        (
            5,
            13,
            "task 'build' in dag 'reports' sets executor_config (assignment), which its executor "
            "CeleryExecutor ignores; only Kubernetes and AWS executors read it",
        )
    ]


def test_a_tasks_own_default_args_are_reported_once_as_that_level() -> None:
    diagnostics = found(
        """
with DAG("reports"):
    BashOperator(task_id="build", bash_command="x", default_args={"password": "hunter2"})
""",
        "DRL401",
    )
    assert [(d.line, d.message.split(" sets ")[0]) for d in diagnostics] == [
        (5, "task default_args")
    ]
    assert "a literal secret in 'password'" in diagnostics[0].message


def test_a_keyword_a_subclass_adds_is_reported_at_the_call() -> None:
    """``kwargs.setdefault`` in the class's ``__init__`` (§1.1, rank 3): BaseOperator gets the
    string and raises TypeError; the call that builds the task is where it is reported."""
    diagnostics = found(
        """
class Weighted(BashOperator):
    def __init__(self, **kwargs):
        kwargs.setdefault("pool_slots", "2")
        super().__init__(bash_command="x", **kwargs)


with DAG("reports"):
    Weighted(task_id="build")
""",
        "DRL007",
    )
    assert [(d.line, d.column) for d in diagnostics] == [(11, 5)]
    assert diagnostics[0].message.startswith("task 'build' in dag 'reports' sets pool_slots='2'")


def test_each_task_gets_the_dag_default_args_it_was_built_with() -> None:
    """A key added to the DAG's ``default_args`` after the first task reaches only the tasks
    built after it (§1.1: default_args are applied at construction)."""
    diagnostics = found(
        """
with DAG("reports", default_args={}) as dag:
    BashOperator(task_id="before", bash_command="x")
    dag.default_args["password"] = "hunter2"
    BashOperator(task_id="after", bash_command="x")
""",
        "DRL401",
    )
    assert [(d.line, d.message.split(" sets ")[0]) for d in diagnostics] == [
        (4, "DAG default_args")
    ]
