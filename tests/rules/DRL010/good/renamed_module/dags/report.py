from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG
from queue_settings import ROUTING_QUEUE

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", queue=ROUTING_QUEUE)
