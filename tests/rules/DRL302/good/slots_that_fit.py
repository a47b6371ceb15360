from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None, default_args={"pool": "reports"}):
    BashOperator(task_id="all_of_it", bash_command="x", pool_slots=4)
    BashOperator(task_id="default", bash_command="x", pool="default_pool", pool_slots=2)
