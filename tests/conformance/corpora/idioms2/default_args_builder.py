"""default_args built by helper functions (copy + update, dict(), the | operator)."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from common.args import get_default_args, merged, team_args

with DAG(
    "default_args_builder",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args=get_default_args(queue="marts", pool="marts"),
):
    BashOperator(task_id="built", bash_command="dbt run")
    BashOperator(task_id="own_queue", bash_command="dbt test", queue="marts-test")

with DAG(
    "default_args_builder_team",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args=team_args("growth", queue="growth"),
):
    BashOperator(task_id="team", bash_command="run")

with DAG(
    "default_args_builder_merged",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args=merged({"pool_slots": 2, "executor": "LocalExecutor"}),
):
    BashOperator(task_id="merged", bash_command="run")
