from datetime import timedelta

from airflow.providers.standard.sensors.time_delta import TimeDeltaSensor
from airflow.sdk import DAG

# The task that does not defer comes first; the one after it is still reported.
with DAG("waits", schedule=None):
    TimeDeltaSensor(task_id="pokes", delta=timedelta(hours=1), deferrable=False)
    TimeDeltaSensor(task_id="defers", delta=timedelta(hours=1), deferrable=True)
