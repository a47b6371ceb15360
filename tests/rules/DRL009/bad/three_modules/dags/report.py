from airflow import DAG
from airflow.operators.empty import EmptyOperator

from common.naming import PREFIX

SUFFIX = "_v2"

with DAG(PREFIX + "report", schedule=None):
    EmptyOperator(task_id="build")
