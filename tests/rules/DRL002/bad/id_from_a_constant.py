from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

NAME = "billing"

with DAG(NAME, schedule=None):
    EmptyOperator(task_id="first")

with DAG(dag_id=f"{NAME}", schedule=None):
    EmptyOperator(task_id="second")
