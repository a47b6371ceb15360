import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The executor is one of two: the queue is reported for the one that ignores queues, and the
# message says which executor that is.
EXECUTOR = "CeleryExecutor" if os.environ.get("SITE") == "lab" else "KubernetesExecutor"
QUEUE = "gpu" if os.environ.get("GPU") else "default"

with DAG("render", schedule=None):
    BashOperator(task_id="draw", bash_command="draw", executor=EXECUTOR, queue="gpu")
    BashOperator(task_id="paint", bash_command="paint", executor=EXECUTOR, queue=QUEUE)
