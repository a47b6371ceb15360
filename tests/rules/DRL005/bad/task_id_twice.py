from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

ARGS = {"task_id": "build", "bash_command": "make report"}

with DAG("reports", schedule=None):
    BashOperator(task_id="build", **ARGS)
