import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Kubernetes is the default executor: a queue other than the default decides nothing.
with DAG("lab_report", schedule=None):
    BashOperator(
        task_id="render",
        bash_command="make report",
        queue="gpu" if os.environ.get("GPU") else "default",
    )
