from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

with DAG("reports", schedule=None):
    SQLExecuteQueryOperator(task_id="count", conn_id="warehous", sql="select 1")
