from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.naming import table_name

# The DAG file is fine, but importing it runs the broken module.
with DAG("reports", schedule=None):
    BashOperator(task_id="load", bash_command=f"load {table_name('events')}")
