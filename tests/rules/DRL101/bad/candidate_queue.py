import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The machine that parses the file decides the queue: each candidate is checked.
HAS_NFS = os.path.isdir("/mnt/shared-nfs")
QUEUE = "nfs" if HAS_NFS else "imports"

with DAG("lab_report", schedule=None):
    BashOperator(task_id="copy", bash_command="copy", queue=QUEUE)
