import logging

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

logging.basicConfig(level=logging.INFO)

with DAG("report", schedule=None):
    BashOperator(task_id="render", bash_command="make report")
