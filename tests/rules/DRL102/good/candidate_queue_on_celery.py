import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("lab_report", schedule=None):
    BashOperator(
        task_id="render",
        bash_command="make report",
        executor="CeleryExecutor",
        queue="gpu" if os.environ.get("GPU") else "default",
    )
