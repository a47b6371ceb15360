from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG(dag_id=None, schedule=None):
    BashOperator(task_id="first", bash_command="x")

with DAG(dag_id=7, schedule=None):
    BashOperator(task_id="second", bash_command="x")
