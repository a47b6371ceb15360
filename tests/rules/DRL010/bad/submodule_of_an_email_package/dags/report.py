from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG
import email.recipients

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", owner=email.recipients.OWNER)
