import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# What is skipped comes first: no queue, the default queue, a queue its executor honours, and
# of a queue that is one of two, the candidate that is the default queue or None.
GPU = os.environ.get("GPU")
DEFAULT_OR_GPU = "default" if GPU else "gpu"
NONE_OR_GPU = None if GPU else "gpu"

with DAG("render", schedule=None):
    BashOperator(task_id="no_queue", bash_command="x", executor="KubernetesExecutor")
    BashOperator(
        task_id="default_queue", bash_command="x", executor="KubernetesExecutor", queue="default"
    )
    BashOperator(task_id="on_celery", bash_command="x", executor="CeleryExecutor", queue="imports")
    BashOperator(task_id="in_pod", bash_command="x", executor="KubernetesExecutor", queue="gpu")
    BashOperator(
        task_id="maybe_default", bash_command="x", executor="KubernetesExecutor", queue=DEFAULT_OR_GPU
    )
    BashOperator(
        task_id="maybe_none", bash_command="x", executor="KubernetesExecutor", queue=NONE_OR_GPU
    )
