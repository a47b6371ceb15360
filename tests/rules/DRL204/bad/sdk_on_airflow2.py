from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("modern", schedule=None):
    BashOperator(task_id="shell", bash_command="x")
