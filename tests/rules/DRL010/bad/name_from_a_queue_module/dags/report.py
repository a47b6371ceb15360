from airflow import DAG
from airflow.operators.empty import EmptyOperator
from queue import ROUTING_QUEUE

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", queue=ROUTING_QUEUE)
