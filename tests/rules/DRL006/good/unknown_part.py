from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

import os

with DAG("exports", schedule=None):
    EmptyOperator(task_id=f"export_{os.environ[\"TABLE\"]}")
