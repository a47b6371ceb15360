from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

COMMON = {"queue": "default", "retries": 2}

with DAG("reports", schedule=None):
    BashOperator(task_id="build", bash_command="make report", **{**COMMON, "queue": "reports"})
