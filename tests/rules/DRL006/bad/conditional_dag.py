import os

from airflow import DAG
from airflow.operators.empty import EmptyOperator

# A DAG built only when a condition the linter cannot decide holds: the report says so.
if os.path.isdir("/"):
    with DAG("daily report", schedule=None):
        EmptyOperator(task_id="start")
