import os

from airflow import DAG
from airflow.operators.empty import EmptyOperator

# DRL003 reports an id reused on every parse; a task built only when a condition the linter
# cannot decide holds is not judged (here the DAG loads whenever REGION is not "eu").
with DAG("exports", schedule=None):
    if os.environ.get("REGION") == "eu":
        EmptyOperator(task_id="start")
    EmptyOperator(task_id="start")
