import polars as pl
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The first task goes to a queue no worker serves (DRL101's finding); the second still needs
# polars on the worker that serves it.
with DAG("features", schedule=None):
    BashOperator(task_id="stuck", bash_command="stuck.sh", queue="nowhere")
    BashOperator(task_id="fetch", bash_command="fetch.sh")

FRAME = pl.DataFrame
