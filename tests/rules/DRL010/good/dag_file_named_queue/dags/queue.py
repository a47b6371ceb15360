from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG
from queue import Queue

PENDING: Queue[str] = Queue()

with DAG("report", schedule=None):
    EmptyOperator(task_id="build")
