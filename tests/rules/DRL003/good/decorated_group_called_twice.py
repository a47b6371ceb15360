from airflow import DAG
from airflow.decorators import task_group
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup


@task_group
def load():
    EmptyOperator(task_id="orders")


with DAG("exports", schedule=None):
    load()
    load()
    EmptyOperator(task_id="load__2")
