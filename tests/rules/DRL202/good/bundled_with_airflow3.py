from airflow.providers.common.sql.hooks.sql import DbApiHook
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("archive", schedule=None):
    BashOperator(task_id="touch", bash_command="touch flag", queue="imports")

HOOK = DbApiHook
