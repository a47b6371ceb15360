from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG, task

with DAG("landing", schedule=None):
    # One hour is already a long wait: the bound is inclusive.
    FileSensor(task_id="landed", filepath="/data/in/ready", timeout=3600)

    # A TaskFlow sensor has no operator class that could take deferrable=True.
    @task.sensor(poke_interval=60, timeout=7200, mode="poke")
    def ready() -> bool:
        return True

    ready()
