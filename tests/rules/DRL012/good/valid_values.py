from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.empty import EmptyOperator

with DAG(
    "reports",
    schedule="0 6 * * 1-5",
    start_date=datetime(2024, 1, 1),
    dagrun_timeout=timedelta(hours=2),
    max_active_runs=None,
    tags=["finance"],
):
    EmptyOperator(task_id="build")

with DAG("reports_nightly", schedule="@midnight", start_date=datetime(2024, 1, 1)):
    EmptyOperator(task_id="build")
