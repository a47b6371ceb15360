from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common import routing

with DAG("lab_report", schedule=None, default_args={"queue": routing.IMPORTS_QUEUE}):
    BashOperator(task_id="fetch", bash_command="fetch-samples")
