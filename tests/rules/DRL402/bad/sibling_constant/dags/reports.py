from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG
from common.connections import WAREHOUSE

with DAG("reports", schedule=None):
    SQLExecuteQueryOperator(task_id="count", conn_id=WAREHOUSE, sql="select 1")
