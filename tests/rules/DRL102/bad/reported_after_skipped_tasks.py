from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The tasks skipped come first: no queue, the default queue, a queue its executor honours.
with DAG("render", schedule=None):
    BashOperator(task_id="no_queue", bash_command="x", executor="KubernetesExecutor")
    BashOperator(
        task_id="default_queue", bash_command="x", executor="KubernetesExecutor", queue="default"
    )
    BashOperator(task_id="on_celery", bash_command="x", executor="CeleryExecutor", queue="imports")
    BashOperator(task_id="in_pod", bash_command="x", executor="KubernetesExecutor", queue="gpu")
