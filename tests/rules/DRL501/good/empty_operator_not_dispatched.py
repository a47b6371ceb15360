from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

with DAG("train", schedule=None):
    EmptyOperator(task_id="done", executor_config={"cpu": 4})
