from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.empty import EmptyOperator

with DAG("reports", schedule=None, start_date=datetime(2024, 1, 1), dagrun_timeout=3600):
    EmptyOperator(task_id="build")
