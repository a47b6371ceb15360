from airflow import DAG
from airflow.operators.empty import EmptyOperator

import common.first

with DAG("report", schedule=None):
    EmptyOperator(task_id=common.first.name())
