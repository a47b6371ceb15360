from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    BashOperator(task_id="fits", bash_command="x", pool="reports", pool_slots=4)
    BashOperator(task_id="render", bash_command="x", pool="reports", pool_slots=8)
