# On Airflow 2.2 these are the current paths: DummyOperator was deprecated only in 2.3, and
# airflow.kubernetes.secret moved to the cncf.kubernetes provider in 2.7; neither is reported.
from airflow import DAG
from airflow.kubernetes.secret import Secret
from airflow.operators.dummy import DummyOperator

SECRET = Secret("env", "TOKEN", "token-secret")

with DAG("legacy", schedule_interval=None):
    DummyOperator(task_id="start")
