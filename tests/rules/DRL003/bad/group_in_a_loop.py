from airflow import DAG
from airflow.decorators import task_group
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

with DAG("exports", schedule=None):
    for table in ["orders", "customers"]:
        with TaskGroup("load"):
            EmptyOperator(task_id=table)
