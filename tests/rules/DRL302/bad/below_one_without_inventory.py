from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None, default_args={"pool_slots": 0}):
    BashOperator(task_id="render", bash_command="x")
