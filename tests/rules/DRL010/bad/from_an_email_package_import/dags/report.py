from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG
from email import recipients

with DAG("report", schedule=None):
    EmptyOperator(task_id="build", owner=recipients.OWNER)
