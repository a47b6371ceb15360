import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Both candidates land on the default queue "main" (None is the default queue): one report.
QUEUE = "main" if os.path.isdir("/mnt/shared-nfs") else None

with DAG("lab_report", schedule=None):
    BashOperator(task_id="copy", bash_command="copy", queue=QUEUE)
