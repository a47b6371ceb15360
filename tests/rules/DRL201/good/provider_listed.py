from airflow.providers.celery.sensors.celery_queue import CeleryQueueSensor
from airflow.sdk import DAG

with DAG("archive", schedule=None):
    CeleryQueueSensor(task_id="drained", celery_queue="default")
