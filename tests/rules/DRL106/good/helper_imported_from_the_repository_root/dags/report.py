from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

from dags.common import notify

with DAG("report", schedule=None, on_failure_callback=notify.message):
    BashOperator(task_id="render", bash_command="make report")
