"""Weekly cleanup of temporary files; everything runs on the default queue."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

dag = DAG("cleanup", schedule="@weekly", start_date=datetime(2026, 1, 1))

start = EmptyOperator(task_id="start", dag=dag)
for folder in ["tmp", "scratch"]:
    start >> BashOperator(task_id=f"clean_{folder}", bash_command=f"rm -rf /data/{folder}/*", dag=dag)
