from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("fan_out", schedule=None):
    BashOperator(task_id="run", bash_command="run.sh", queue="imports", pool_slots=2)
