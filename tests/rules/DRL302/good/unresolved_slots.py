import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    BashOperator(task_id="render", bash_command="x", pool="reports", pool_slots=int(os.environ["N"]))
