import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG(os.environ["PIPELINE_NAME"], schedule=None):
    BashOperator(task_id="run", bash_command="run")
