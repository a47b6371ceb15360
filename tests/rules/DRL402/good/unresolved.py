import os

from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

with DAG("reports", schedule=None):
    SQLExecuteQueryOperator(task_id="count", conn_id=os.environ["REPORTS_CONN"], sql="select 1")
