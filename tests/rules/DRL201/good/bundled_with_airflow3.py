from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# apache-airflow-core 3 depends on standard and common-sql: every runtime has them.
with DAG("archive", schedule=None):
    BashOperator(task_id="touch", bash_command="touch flag")
    SQLExecuteQueryOperator(task_id="count", conn_id="warehouse", sql="select 1")
