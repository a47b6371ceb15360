"""A task whose routing is one of several values, taken one value at a time: each variant holds
the chosen values as known fields and no longer lists them as unresolved; the rest stays as it
was. ``pool=None`` among the candidates is the default pool, as ``BaseOperator`` makes it."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import Field
from tests.helpers import routes

SOURCE = """
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

POOL = "reports" if os.environ.get("HEAVY") else None
QUEUE = "big" if os.environ.get("HEAVY") else "small"

with DAG("reports", schedule=None):
    BashOperator(
        task_id="build",
        bash_command="x",
        pool=POOL,
        queue=QUEUE,
        executor=os.environ["EXECUTOR"],
    )
"""
CONDITION = "a conditional expression"


def test_candidates_of_the_pool_name_the_default_pool(tmp_path: Path) -> None:
    task = routes(tmp_path, SOURCE)["build"]
    assert task.fields["pool"] == Field(
        None, False, "argument", CONDITION, ("reports", "default_pool")
    )


def test_each_variant_knows_what_it_chose_and_nothing_more(tmp_path: Path) -> None:
    task = routes(tmp_path, SOURCE)["build"]
    executor_reason = "environment variable (os.environ)"
    assert dict(task.unresolved) == {
        "queue": CONDITION,
        "executor": executor_reason,
        "pool": CONDITION,
    }
    seen = [
        (
            chosen,
            variant.fields["queue"],
            variant.fields["pool"],
            variant.fields["executor"].known,
            variant.unresolved,
        )
        for variant, chosen in task.variants(("queue", "pool", "executor"))
    ]
    assert seen == [
        (
            {"queue": queue, "pool": pool},
            Field(queue, True, "argument"),
            Field(pool, True, "argument"),
            False,
            (("executor", executor_reason),),
        )
        for queue in ("big", "small")
        for pool in ("reports", "default_pool")
    ]
