from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

with DAG("exports", schedule=None):
    for table in ["orders", "customers"]:
        BashOperator(task_id="export", bash_command=f"export.sh {table}")
