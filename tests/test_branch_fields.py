"""Fields that may take several values: a task built in undecided branches keeps a field the
branches agree on exactly as each branch resolved it (its reason too), and a task whose
candidates combine into more variants than the rules check (``MAX_VARIANTS``) keeps none of
them, each such field unknown with the reason, while its other fields stay as they were."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import MAX_VARIANTS, Field, ResolvedTask
from tests.helpers import lint_repo, placeless

HEAD = """
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.trigger_dagrun import TriggerDagRunOperator
from airflow.sdk import DAG

E = os.environ.get
REGION = E("REGION")
# Eight values each: every combination of three conditions.
QUEUE = ("a" if E("A") else "b") + ("c" if E("B") else "d") + ("e" if E("C") else "f")
POOL = ("p" if E("A") else "q") + ("r" if E("B") else "s") + ("t" if E("C") else "u")
"""
CONDITION = "a conditional expression"
QUEUES = ("ace", "acf", "ade", "adf", "bce", "bcf", "bde", "bdf")
POOLS = ("prt", "pru", "pst", "psu", "qrt", "qru", "qst", "qsu")
TOO_MANY = f"{CONDITION}, with too many combinations"


def tasks(tmp_path: Path, body: str) -> dict[str, ResolvedTask]:
    found = lint_repo(tmp_path, {"dags/dag.py": HEAD + body}, inventory=None).tasks
    return {task.task_id or "?": task for task in found}


def test_branches_agreeing_on_an_unknown_value_keep_its_own_reason(tmp_path: Path) -> None:
    """Both branches read the same environment variable: nothing differs between them, so the
    reason is the variable's, not a disagreement of branches."""
    task = tasks(
        tmp_path,
        """
with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x", queue=os.environ["QUEUE"])
    else:
        BashOperator(task_id="build", bash_command="x", queue=os.environ["QUEUE"])
""",
    )["build"]
    reason = "environment variable (os.environ)"
    assert placeless(task.fields["queue"]) == Field(None, False, "argument", reason, ())
    assert dict(task.unresolved) == {"queue": reason}


def test_branches_agreeing_on_deferral_keep_what_makes_it_defer(tmp_path: Path) -> None:
    task = tasks(
        tmp_path,
        """
with DAG("reports", schedule=None):
    if REGION == "eu":
        TriggerDagRunOperator(task_id="build", trigger_dag_id="eu", deferrable=True)
    else:
        TriggerDagRunOperator(task_id="build", trigger_dag_id="us", deferrable=True)
""",
    )["build"]
    assert task.fields["deferrable"] == Field(True, True, "argument", "deferrable=True")
    assert task.unresolved == ()


def test_candidates_combining_into_exactly_the_bound_are_kept(tmp_path: Path) -> None:
    assert len(QUEUES) * len(POOLS) == MAX_VARIANTS
    task = tasks(
        tmp_path,
        """
with DAG("reports", schedule=None):
    BashOperator(task_id="build", bash_command="x", queue=QUEUE, pool=POOL)
""",
    )["build"]
    assert task.fields["queue"] == Field(None, False, "argument", CONDITION, QUEUES)
    assert task.fields["pool"] == Field(None, False, "argument", CONDITION, POOLS)
    assert len(list(task.variants(("queue", "pool")))) == MAX_VARIANTS


def test_candidates_past_the_bound_are_dropped_with_the_reason(tmp_path: Path) -> None:
    """8 queues, 8 pools and 2 slot counts are 128 variants: every field with candidates becomes
    unknown without them; the known fields, the last one included, are untouched."""
    task = tasks(
        tmp_path,
        """
with DAG("reports", schedule=None):
    BashOperator(
        task_id="build",
        bash_command="x",
        queue=QUEUE,
        pool=POOL,
        pool_slots=1 if E("BIG") else 2,
    )
""",
    )["build"]
    assert task.fields == {
        "queue": Field(None, False, "argument", TOO_MANY, ()),
        "executor": Field(None, True, "default"),
        "pool": Field(None, False, "argument", TOO_MANY, ()),
        "pool_slots": Field(None, False, "argument", TOO_MANY, ()),
        "deferrable": Field(False, True, "default"),
    }
    assert dict(task.unresolved) == {"queue": TOO_MANY, "pool": TOO_MANY, "pool_slots": TOO_MANY}
