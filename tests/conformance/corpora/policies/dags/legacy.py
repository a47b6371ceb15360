"""A DAG the dag_policy re-routes, and one it skips (Airflow drops it without an error)."""

import pendulum
from airflow import DAG
from airflow.operators.bash import BashOperator

START = pendulum.datetime(2024, 1, 1, tz="UTC")

with DAG("legacy_batch", start_date=START, schedule=None):
    BashOperator(task_id="nightly", bash_command="nightly.sh")
    BashOperator(task_id="weekly", bash_command="weekly.sh", queue="default")

with DAG("skipped_by_policy", start_date=START, schedule=None):
    BashOperator(task_id="never", bash_command="never.sh")
