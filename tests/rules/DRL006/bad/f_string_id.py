from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

TABLES = ["orders", "order lines"]

with DAG("exports", schedule=None):
    for table in TABLES:
        EmptyOperator(task_id=f"export_{table}")
