import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

POOL = "loaders" if os.environ.get("BULK") else "reports"

with DAG("lab_report", schedule=None):
    BashOperator(task_id="render", bash_command="make report", pool=POOL)
