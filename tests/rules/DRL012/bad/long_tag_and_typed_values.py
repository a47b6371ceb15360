from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.empty import EmptyOperator

TAG = "reports-owned-by-the-finance-analytics-team-for-the-quarterly-close-and-the-yearly-audit-of-all-ledgers"

with DAG(
    "reports",
    schedule="@dayly",
    start_date="2024-01-01",
    max_active_runs="2",
    tags=[TAG],
):
    EmptyOperator(task_id="build")
