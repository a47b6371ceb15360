from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("lab_report", schedule=None, default_args={"queue": "imports"}):
    BashOperator(task_id="fetch", bash_command="fetch-samples")
    BashOperator(task_id="render", bash_command="make report", queue="default")
