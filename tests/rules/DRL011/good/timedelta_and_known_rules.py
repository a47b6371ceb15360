from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.bash import BashOperator

DEFAULTS = {"retries": "3", "retry_delay": 300, "trigger_rule": "all_done"}

with DAG("reports", schedule=None, start_date=datetime(2024, 1, 1), default_args=DEFAULTS):
    BashOperator(task_id="build", bash_command="make", execution_timeout=timedelta(hours=1))
    BashOperator(task_id="check", bash_command="check", depends_on_past=True, queue=None)
    BashOperator(task_id="rank", bash_command="rank", priority_weight=True, email=["a@b.c"])
