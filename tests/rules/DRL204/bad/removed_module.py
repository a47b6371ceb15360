from airflow.operators.dummy import DummyOperator
from airflow.sdk import DAG

# airflow.operators.dummy is gone in Airflow 3; EmptyOperator replaces DummyOperator.
with DAG("legacy", schedule=None):
    DummyOperator(task_id="start")
