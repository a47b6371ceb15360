import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The report stands where the value is written: a comment there silences it for every task.
QUEUE = os.environ["QUEUE"]  # noqa: DRL105

with DAG("nightly", schedule=None):
    BashOperator(task_id="export", bash_command="x", queue=QUEUE)
    BashOperator(task_id="load", bash_command="x", queue=QUEUE)
