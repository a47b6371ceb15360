from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    BashOperator(task_id="run", bash_command="true")
