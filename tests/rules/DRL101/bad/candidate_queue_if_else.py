import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

if os.environ.get("REGION") == "eu":
    QUEUE = "eu-reports"
elif os.environ.get("REGION") == "us":
    QUEUE = "us-reports"
else:
    QUEUE = "default"

with DAG("lab_report", schedule=None, default_args={"queue": QUEUE}):
    BashOperator(task_id="render", bash_command="make report")
