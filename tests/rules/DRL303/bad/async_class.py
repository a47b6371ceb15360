from datetime import timedelta

from airflow.providers.standard.sensors.time_delta import TimeDeltaSensorAsync
from airflow.sdk import DAG

# *Async classes always defer.
with DAG("waits", schedule=None):
    TimeDeltaSensorAsync(task_id="later", delta=timedelta(hours=1))
