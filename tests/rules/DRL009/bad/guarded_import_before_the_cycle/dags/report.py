from airflow import DAG
from airflow.operators.empty import EmptyOperator

from helpers import OWNER

SCHEDULE = "@daily"

with DAG("report", schedule=None, tags=[OWNER]):
    EmptyOperator(task_id="build")
