from airflow.providers.standard.sensors.python import PythonSensor
from airflow.sdk import DAG


def ready() -> bool:
    return False


# PythonSensor takes no deferrable: only reschedule mode frees its slots.
with DAG("landing", schedule=None):
    PythonSensor(task_id="ready", python_callable=ready, timeout=86400)
