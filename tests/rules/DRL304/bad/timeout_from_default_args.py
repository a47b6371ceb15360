from airflow.providers.standard.sensors.time import TimeSensor
from airflow.sdk import DAG

with DAG("landing", schedule=None, default_args={"timeout": 7200, "mode": "poke"}):
    TimeSensor(task_id="at_six", target_time="06:00")
