from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

# Under an hour of poking is cheaper than rescheduling.
with DAG("landing", schedule=None):
    FileSensor(task_id="landed", filepath="/data/in/ready", timeout=600, poke_interval=30)
