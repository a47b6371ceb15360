from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("train", schedule=None):
    BashOperator(task_id="on_gpu", bash_command="x", executor="CeleryExecutor", queue="gpu")
    BashOperator(task_id="in_pod", bash_command="x", executor="KubernetesExecutor", queue="gpu")
