from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common import pools

with DAG("nightly", schedule=None):
    BashOperator(task_id="render", bash_command="make report", pool=pools.REPORTS)
