import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The candidate that is fine comes first: a served queue, an executor that ignores queues; the
# candidate after it is still checked.
SITE = os.environ.get("SITE")
QUEUE = "imports" if SITE else "nfs"
EXECUTOR = "KubernetesExecutor" if SITE else "CeleryExecutor"

with DAG("lab_report", schedule=None):
    BashOperator(task_id="copy", bash_command="copy", queue=QUEUE)
    BashOperator(task_id="draw", bash_command="draw", executor=EXECUTOR, queue="gpu")
