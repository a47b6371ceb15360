from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("broken", schedule=None)
    BashOperator(task_id="t", bash_command="x")
