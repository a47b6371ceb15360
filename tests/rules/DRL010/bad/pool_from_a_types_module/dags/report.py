from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG
from types import POOL_NAME

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", pool=POOL_NAME)
