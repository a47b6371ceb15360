from airflow import DAG
from airflow.decorators import task_group
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup
import os

with DAG("exports", schedule=None):
    for table in ["orders", "customers"]:
        with TaskGroup(f"load_{table}"):
            EmptyOperator(task_id=table)
    if os.environ.get("WITH_AUDIT"):
        with TaskGroup("load_orders_audit"):
            EmptyOperator(task_id="audit")
    else:
        with TaskGroup("load_orders_audit"):
            EmptyOperator(task_id="skip")
