from airflow import DAG
from airflow.operators.empty import EmptyOperator
from imports_itself import OWNER

OWNER = "team-reports"

with DAG("report", schedule=None, tags=[OWNER]):
    EmptyOperator(task_id="build")
