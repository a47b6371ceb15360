from datetime import datetime

from airflow.decorators import dag
from airflow.operators.empty import EmptyOperator


@dag(schedule=None, start_date=datetime(2024, 1, 1), concurrency=4)
def reports():
    EmptyOperator(task_id="build")


reports()
