from airflow import DAG
from airflow.operators.empty import EmptyOperator
from queue_settings import ROUTING_QUEUE

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", queue=ROUTING_QUEUE)
