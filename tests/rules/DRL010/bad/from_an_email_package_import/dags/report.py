from airflow import DAG
from airflow.operators.empty import EmptyOperator
from email import recipients

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", owner=recipients.OWNER)
