from airflow import DAG
from airflow.operators.empty import EmptyOperator

from helpers import owner

SCHEDULE = "@daily"

with DAG("report", schedule=None, tags=[owner()]):
    EmptyOperator(task_id="build")
