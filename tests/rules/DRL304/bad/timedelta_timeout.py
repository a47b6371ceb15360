from datetime import timedelta

from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

with DAG("landing", schedule=None):
    FileSensor(task_id="landed", filepath="/data/in/ready", timeout=timedelta(hours=2))
