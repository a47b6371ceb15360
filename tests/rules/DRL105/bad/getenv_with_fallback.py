import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The fallback is only one of the values the queue can take.
with DAG("nightly", schedule=None):
    BashOperator(task_id="export", bash_command="x", queue=os.getenv("QUEUE", "default"))
