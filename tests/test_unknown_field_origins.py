"""Where a routing field comes from: an unknown one still says the level that gave the value
Airflow uses, as a known one does (the editor's hover shows it); one set nowhere is the default."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import Field
from tests.helpers import placeless, routes

SOURCE = """
import os
from datetime import timedelta

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("reports", schedule=None, default_args={"pool": timedelta(minutes=5)}):
    BashOperator(task_id="build", bash_command="x", queue=os.environ["QUEUE"])
"""


def test_unknown_fields_keep_their_origin(tmp_path: Path) -> None:
    task = routes(tmp_path, SOURCE)["build"]
    assert placeless(task.fields["queue"]) == Field(
        None, False, "argument", "environment variable (os.environ)"
    )
    assert task.fields["pool"] == Field(
        None, False, "DAG default_args", "a timedelta, which is not a valid pool"
    )


def test_a_flag_nothing_sets_is_the_default(tmp_path: Path) -> None:
    """``deferrable`` given nowhere is Airflow's default, false, as a routing field given
    nowhere is."""
    task = routes(tmp_path, SOURCE)["build"]
    assert task.fields["deferrable"] == Field(False, True, "default")
    assert task.fields["pool_slots"] == Field(1, True, "default")
