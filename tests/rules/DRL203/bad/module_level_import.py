import polars as pl
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The worker re-imports the whole file: every task of it needs polars.
with DAG("features", schedule=None):
    BashOperator(task_id="fetch", bash_command="fetch.sh")
    BashOperator(task_id="fit", bash_command="fit.sh", queue="ml")

FRAME = pl.DataFrame
