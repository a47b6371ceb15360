from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

import os

with DAG(os.environ["DAG_NAME"], schedule=None):
    EmptyOperator(task_id="first")

with DAG(os.environ["OTHER_NAME"], schedule=None):
    EmptyOperator(task_id="second")
