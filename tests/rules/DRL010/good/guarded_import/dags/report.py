from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

try:
    from types import POOL_NAME
except ImportError:
    POOL_NAME = "default_pool"

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", pool=POOL_NAME)
