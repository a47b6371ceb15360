from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

with DAG("reports", schedule=None, default_args={"conn_id": "reporting_db"}):
    SQLExecuteQueryOperator(task_id="count", sql="select 1")
    SQLExecuteQueryOperator(task_id="other", sql="select 2", conn_id="reports_db")
