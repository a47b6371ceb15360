from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    EmptyOperator(task_id="done", pool="nowhere")
