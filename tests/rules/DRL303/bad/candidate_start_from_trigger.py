import os

from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

FROM_TRIGGER = os.environ.get("ENV") == "prod" or False

with DAG("waits", schedule=None):
    FileSensor(
        task_id="landed",
        filepath="/data/in",
        deferrable=False,
        start_from_trigger=True if FROM_TRIGGER else False,
    )
