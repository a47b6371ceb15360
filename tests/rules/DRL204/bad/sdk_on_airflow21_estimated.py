# No release of Airflow 2.1 was checked: it is judged on the nearest one (2.2.5), an estimate,
# so even an import that fails there is a warning.
from airflow.operators.dummy import DummyOperator
from airflow.sdk import DAG

with DAG("modern", schedule_interval=None):
    DummyOperator(task_id="start")
