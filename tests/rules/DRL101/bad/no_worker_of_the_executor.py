from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("lab_report", schedule=None):
    BashOperator(task_id="pod", bash_command="x", executor="KubernetesExecutor")
    # CeleryExecutor is configured, but the inventory declares no Celery worker at all.
    BashOperator(task_id="render", bash_command="make report", executor="CeleryExecutor")
