from airflow import DAG
from airflow.operators.empty import EmptyOperator
import email.recipients

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", owner=email.recipients.OWNER)
