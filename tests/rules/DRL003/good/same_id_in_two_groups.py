from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

with DAG("exports", schedule=None):
    with TaskGroup("eu"):
        EmptyOperator(task_id="start")
    with TaskGroup("us"):
        EmptyOperator(task_id="start")
