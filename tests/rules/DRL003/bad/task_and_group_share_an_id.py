from airflow import DAG
from airflow.decorators import task_group
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

with DAG("exports", schedule=None):
    EmptyOperator(task_id="load")
    with TaskGroup("load"):
        EmptyOperator(task_id="orders")
    with TaskGroup("publish"):
        EmptyOperator(task_id="orders")
    EmptyOperator(task_id="publish")
