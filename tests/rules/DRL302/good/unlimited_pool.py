from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    BashOperator(task_id="big", bash_command="x", pool="scratch", pool_slots=1000)
