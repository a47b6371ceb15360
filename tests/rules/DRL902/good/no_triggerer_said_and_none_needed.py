from datetime import timedelta

from airflow.providers.standard.sensors.time_delta import TimeDeltaSensor
from airflow.sdk import DAG

with DAG("waits", schedule=None):
    TimeDeltaSensor(task_id="later", delta=timedelta(hours=1), mode="reschedule")
