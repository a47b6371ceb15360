from airflow import DAG
from airflow.operators.bash import BashOperator

with DAG("reports", schedule=None):
    BashOperator("make", "report", task_id="render")
