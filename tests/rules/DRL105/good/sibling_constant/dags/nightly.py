from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.routing import EXPORT_POOL, EXPORT_QUEUE

with DAG("nightly", schedule=None):
    BashOperator(task_id="export", bash_command="x", queue=EXPORT_QUEUE, pool=EXPORT_POOL)
