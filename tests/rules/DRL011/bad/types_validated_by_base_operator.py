from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("reports", schedule=None, start_date=datetime(2024, 1, 1)):
    BashOperator(task_id="build", bash_command="make", queue=5)
    BashOperator(task_id="check", bash_command="check", depends_on_past="yes")
    BashOperator(task_id="rank", bash_command="rank", priority_weight="high")
    BashOperator(task_id="push", bash_command="push", retries="three")
    BashOperator(task_id="wait", bash_command="wait", retry_delay="300")
