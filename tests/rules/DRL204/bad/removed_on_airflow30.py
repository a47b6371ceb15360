# On Airflow 3.0 airflow.operators.dummy is gone: the file does not load, an error.
from airflow.operators.dummy import DummyOperator
from airflow.sdk import DAG

with DAG("legacy", schedule=None):
    DummyOperator(task_id="start")
