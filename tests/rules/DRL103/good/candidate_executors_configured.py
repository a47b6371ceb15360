import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

EXECUTOR = "KubernetesExecutor" if os.environ.get("ON_K8S") else "CeleryExecutor"

with DAG("lab_report", schedule=None):
    BashOperator(task_id="render", bash_command="make report", executor=EXECUTOR)
