from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

# Rendered when the task runs: which connection it names is not known here.
with DAG("reports", schedule=None):
    SQLExecuteQueryOperator(task_id="count", conn_id="{{ var.value.reports_conn }}", sql="select 1")
