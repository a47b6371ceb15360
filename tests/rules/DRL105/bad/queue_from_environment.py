import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    BashOperator(
        task_id="export",
        bash_command="export.sh",
        queue=os.environ["EXPORT_QUEUE"],
    )
