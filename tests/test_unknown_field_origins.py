"""An unknown routing field still says where it was set: the level that gave the value Airflow
uses, as a known field does (the editor's hover shows it)."""

from __future__ import annotations

from pathlib import Path

from dagroute_lint.resolve.tasks import Field
from tests.helpers import routes

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
    assert task.fields["queue"] == Field(
        None, False, "argument", "environment variable (os.environ)"
    )
    assert task.fields["pool"] == Field(
        None, False, "DAG default_args", "a timedelta, which is not a valid pool"
    )
