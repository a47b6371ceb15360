from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

# No timeout: [sensors] default_timeout, 7 days of poking in a worker slot.
with DAG("landing", schedule=None):
    FileSensor(task_id="landed", filepath="/data/in/ready")
