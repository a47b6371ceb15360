from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

# Without [connections] the inventory does not say which connections exist.
with DAG("reports", schedule=None):
    SQLExecuteQueryOperator(task_id="count", conn_id="anything", sql="select 1")
