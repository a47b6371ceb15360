# Airflow 2's airflow.operators.python also had the deprecated task() helper; Airflow 3's shim
# forwards only the operators and get_current_context.
from airflow.operators.python import task
from airflow.sdk import DAG

with DAG("legacy", schedule=None):
    task(print)()
