from airflow.operators.bash import BashOperator
from airflow import DAG

# Airflow 2's core ships BashOperator itself; common.sql is a provider there, as in 3.
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator

with DAG("archive", schedule=None):
    BashOperator(task_id="touch", bash_command="touch flag")
    SQLExecuteQueryOperator(task_id="count", conn_id="warehouse", sql="select 1")
