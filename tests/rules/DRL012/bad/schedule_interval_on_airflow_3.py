from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.empty import EmptyOperator

with DAG("reports", schedule_interval="@daily", start_date=datetime(2024, 1, 1)):
    EmptyOperator(task_id="build")
