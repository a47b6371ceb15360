import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# None is one of the candidates (the default queue then): the message names it as None.
QUEUE = "nfs" if os.path.isdir("/mnt/shared-nfs") else None

with DAG("lab_report", schedule=None):
    BashOperator(task_id="copy", bash_command="copy", queue=QUEUE)
