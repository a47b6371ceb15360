"""Where a routing field comes from, level by level (semantics §1.1, §1.3, §1.5): an assignment
after construction, a repository class's own code the walk does not follow, the call's
arguments (``@task.stub``'s explicit ``None`` included), then each ``default_args`` level; a
level that may lack the key lets the levels below decide too; and a key ``BaseOperator`` does
not take reaches the operator from ``default_args`` only where its class takes it."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import Field, ResolvedTask
from tests.helpers import lint_repo, placeless

HEAD = """
import os

import somewhere
from acme.operators import AcmeOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.trigger_dagrun import TriggerDagRunOperator
from airflow.sdk import DAG, task
"""
CONDITION = "a conditional expression"
ENVIRONMENT = "environment variable (os.environ)"


def tasks(tmp_path: Path, body: str) -> dict[str, ResolvedTask]:
    found = lint_repo(tmp_path, {"dags/dag.py": HEAD + body}, inventory=None).tasks
    return {task.task_id or "?": task for task in found}


def test_a_level_that_may_lack_the_key_lets_the_levels_below_decide(tmp_path: Path) -> None:
    """The task's ``default_args`` is one of two dicts, one without ``queue``: where it lacks
    the key, the DAG's ``default_args`` (or Airflow's default) gives the queue."""
    found = tasks(
        tmp_path,
        """
MAYBE = {"queue": "own"} if os.environ.get("OWN") else {}

with DAG("known", schedule=None, default_args={"queue": "dagq"}):
    BashOperator(task_id="known_below", bash_command="x", default_args=MAYBE)

with DAG("unknown", schedule=None, default_args={"queue": os.environ["QUEUE"]}):
    BashOperator(task_id="unknown_below", bash_command="x", default_args=MAYBE)

with DAG("nothing", schedule=None):
    BashOperator(task_id="nothing_below", bash_command="x", default_args=MAYBE)
""",
    )
    origin = "task default_args"
    assert found["known_below"].fields["queue"] == Field(
        None, False, origin, CONDITION, ("own", "dagq")
    )
    assert placeless(found["unknown_below"].fields["queue"]) == Field(
        None, False, origin, ENVIRONMENT, ()
    )
    assert found["nothing_below"].fields["queue"] == Field(
        None, False, origin, CONDITION, ("own", "default")
    )


def test_an_attribute_assigned_after_construction_is_an_assignment(tmp_path: Path) -> None:
    task = tasks(
        tmp_path,
        """
with DAG("reports", schedule=None):
    late = BashOperator(task_id="late", bash_command="x", queue="early")
    late.queue = "reports"
""",
    )["late"]
    assert task.fields["queue"] == Field("reports", True, "assignment")


def test_a_class_whose_code_may_set_one_field_leaves_only_that_one_unknown(
    tmp_path: Path,
) -> None:
    """The walk does not follow a loop over an unknown value, so what ``__init__`` does to
    ``queue`` is not known; the pool, which the class never mentions, is Airflow's default."""
    task = tasks(
        tmp_path,
        """
class QueueOnly(BashOperator):
    def __init__(self, **kwargs):
        for name in somewhere.QUEUES:
            kwargs.setdefault("queue", name)
        super().__init__(**kwargs)

with DAG("reports", schedule=None):
    QueueOnly(task_id="routed", bash_command="x")
""",
    )["routed"]
    reason = "class dag.QueueOnly may set 'queue' in its own code, which is not followed"
    assert placeless(task.fields["queue"]) == Field(None, False, "assignment", reason)
    assert task.fields["pool"] == Field("default_pool", True, "default")
    assert dict(task.unresolved) == {"queue": reason}


def test_a_class_that_may_change_any_keyword_leaves_every_field_unknown(tmp_path: Path) -> None:
    """``kwargs.update(...)`` in ``__init__`` may set any keyword, whichever it names."""
    task = tasks(
        tmp_path,
        """
class Opaque(BashOperator):
    def __init__(self, **kwargs):
        for extra in somewhere.EXTRAS:
            kwargs.update(extra)
        super().__init__(**kwargs)

with DAG("reports", schedule=None):
    Opaque(task_id="opaque", bash_command="x")
""",
    )["opaque"]
    for name in ("queue", "executor", "pool", "pool_slots", "deferrable"):
        reason = f"class dag.Opaque may set '{name}' in its own code, which is not followed"
        assert placeless(task.fields[name]) == Field(None, False, "assignment", reason), name


def test_a_stub_task_passes_none_for_queue_and_executor(tmp_path: Path) -> None:
    """``@task.stub`` gives ``queue=None`` and ``executor=None`` as arguments, so the DAG's
    ``default_args`` never reach them (semantics §1.3); the pool still comes from them."""
    task = tasks(
        tmp_path,
        """
with DAG(
    "reports",
    schedule=None,
    default_args={"queue": "reports", "executor": "KubernetesExecutor", "pool": "big"},
):
    @task.stub
    def remote(): ...

    remote()
""",
    )["remote"]
    assert task.fields["queue"] == Field(None, True, "argument")
    assert task.fields["executor"] == Field(None, True, "argument")
    assert task.fields["pool"] == Field("big", True, "DAG default_args")


def test_default_args_never_reach_a_non_base_key_of_a_mapped_classic_task(
    tmp_path: Path,
) -> None:
    """``partial()`` keeps only ``BaseOperator`` parameters from ``default_args`` (semantics
    §1.5): the same class, unmapped, takes ``deferrable`` from them."""
    found = tasks(
        tmp_path,
        """
with DAG("reports", schedule=None, default_args={"deferrable": True}):
    TriggerDagRunOperator.partial(task_id="mapped").expand(trigger_dag_id=["a", "b"])
    TriggerDagRunOperator(task_id="plain", trigger_dag_id="a")
""",
    )
    assert found["mapped"].fields["deferrable"] == Field(False, True, "default")
    assert found["plain"].fields["deferrable"] == Field(
        True, True, "DAG default_args", "deferrable=True from DAG default_args"
    )


def test_a_non_base_key_from_default_args_is_unknown_for_an_unknown_class(
    tmp_path: Path,
) -> None:
    task = tasks(
        tmp_path,
        """
with DAG("reports", schedule=None, default_args={"deferrable": True}):
    AcmeOperator(task_id="acme")
""",
    )["acme"]
    reason = (
        "DAG default_args set 'deferrable', which reaches AcmeOperator only if its __init__ "
        "takes it"
    )
    assert task.fields["deferrable"] == Field(None, False, "DAG default_args", reason)
    assert dict(task.unresolved) == {"deferrable": reason}
