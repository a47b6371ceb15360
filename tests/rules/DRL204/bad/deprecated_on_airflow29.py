# On Airflow 2.9 DummyOperator still imports, through a deprecation shim: a warning, not an error
# (the file loads).
from airflow import DAG
from airflow.operators.dummy import DummyOperator

with DAG("legacy", schedule=None):
    DummyOperator(task_id="start")
