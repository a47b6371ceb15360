from airflow.providers.standard.sensors.filesystem import FileSensor
from airflow.sdk import DAG

with DAG("landing", schedule=None):
    # Airflow rejects a timeout that is not a number when the DAG loads; not this rule's finding.
    FileSensor(task_id="landed", filepath="/data/in/ready", timeout="36000")
