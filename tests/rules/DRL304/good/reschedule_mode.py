from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

with DAG("landing", schedule=None, default_args={"mode": "reschedule"}):
    FileSensor(task_id="landed", filepath="/data/in/ready")
    FileSensor(task_id="other", filepath="/data/in/other", timeout=86400)
