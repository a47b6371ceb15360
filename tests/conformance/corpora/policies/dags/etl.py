"""An ETL DAG: shell tasks move to the shell queue, loads to Kubernetes, reports to a pool."""

import pendulum
from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator
from airflow.utils.task_group import TaskGroup

with DAG("etl_daily", start_date=pendulum.datetime(2024, 1, 1, tz="UTC"), schedule=None):
    BashOperator(task_id="extract", bash_command="extract.sh")
    BashOperator(task_id="load", bash_command="load.sh", queue="io")
    with TaskGroup("grp"):
        BashOperator(task_id="load", bash_command="load.sh", queue="io")
    PythonOperator(task_id="report_daily", python_callable=print, queue="py")
    BashOperator(task_id="flaky", bash_command="flaky.sh", queue="io", retries=3)

    @task(queue="py")
    def report_summary():
        return 1

    report_summary()
