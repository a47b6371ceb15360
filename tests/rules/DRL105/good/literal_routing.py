from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None, default_args={"pool": "exports"}):
    BashOperator(task_id="export", bash_command="x", queue="imports", pool_slots=2)
