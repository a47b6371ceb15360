import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Which executor runs the task is unknown, so whether it ignores the queue is too.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="x", executor=os.environ["EXECUTOR"], queue="gpu")
