from airflow import DAG
from airflow.operators.empty import EmptyOperator
from types import POOL_NAME

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", pool=POOL_NAME)
