from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.routing import IMPORTS_QUEUE, REPORTS_QUEUE

with DAG("lab_report", schedule=None):
    BashOperator(task_id="fetch", bash_command="fetch-samples", queue=IMPORTS_QUEUE)
    BashOperator(task_id="render", bash_command="make report", queue=REPORTS_QUEUE)
