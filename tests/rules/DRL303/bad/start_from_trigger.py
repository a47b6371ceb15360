from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

with DAG("waits", schedule=None):
    FileSensor(task_id="landed", filepath="/data/in/ready", start_from_trigger=True)
