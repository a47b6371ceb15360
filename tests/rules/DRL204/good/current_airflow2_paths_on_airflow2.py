# The Airflow 2 paths that import on Airflow 2.10 without a warning.
from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.dates import days_ago

with DAG("current", schedule=None, start_date=days_ago(1)):
    EmptyOperator(task_id="start") >> BashOperator(task_id="shell", bash_command="x")
    task(print)()
