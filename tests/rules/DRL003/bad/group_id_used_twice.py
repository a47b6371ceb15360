from airflow import DAG
from airflow.decorators import task_group
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

with DAG("exports", schedule=None):
    with TaskGroup("load"):
        EmptyOperator(task_id="orders")
    with TaskGroup("load"):
        EmptyOperator(task_id="customers")
