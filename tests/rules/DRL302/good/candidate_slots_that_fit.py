import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

SLOTS = 4 if os.environ.get("HEAVY") else 1

with DAG("lab_report", schedule=None):
    BashOperator(task_id="render", bash_command="make report", pool="reports", pool_slots=SLOTS)
