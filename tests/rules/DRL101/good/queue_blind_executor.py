from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# KubernetesExecutor ignores queues (DRL102's business), so no queue is unserved.
with DAG("lab_report", schedule=None):
    BashOperator(task_id="pod", bash_command="x", executor="KubernetesExecutor", queue="gpu")
