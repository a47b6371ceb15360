import os

from airflow.providers.standard.sensors.time import TimeSensor
from airflow.sdk import DAG

with DAG("waits", schedule=None):
    TimeSensor(task_id="at_six", target_time="06:00", deferrable=os.environ.get("DEFER") == "1")
