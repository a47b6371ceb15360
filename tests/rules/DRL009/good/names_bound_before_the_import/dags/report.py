from airflow import DAG
from airflow.operators.empty import EmptyOperator

from common.first import NAME

with DAG(NAME, schedule=None):
    EmptyOperator(task_id="build")
