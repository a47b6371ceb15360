from airflow import DAG
from airflow.operators.empty import EmptyOperator

try:
    from types import POOL_NAME
except ImportError:
    POOL_NAME = "default_pool"

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", pool=POOL_NAME)
