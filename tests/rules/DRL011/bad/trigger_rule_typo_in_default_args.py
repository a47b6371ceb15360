from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.bash import BashOperator

DEFAULTS = {"owner": "reports", "trigger_rule": "all_sucess"}

with DAG("reports", schedule=None, start_date=datetime(2024, 1, 1), default_args=DEFAULTS):
    BashOperator(task_id="build", bash_command="make report")
