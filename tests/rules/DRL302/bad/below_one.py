from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

# Rejected when the file is parsed, whatever the task: even an EmptyOperator fails the DAG.
with DAG("nightly", schedule=None):
    BashOperator(task_id="none", bash_command="x", pool_slots=0)
    EmptyOperator(task_id="negative", pool_slots=-1)
