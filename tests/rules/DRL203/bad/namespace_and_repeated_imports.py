import google
import polars
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from google.cloud import storage
from polars import DataFrame

# 'import google' names no distribution; 'from google.cloud import storage' needs the one that
# provides google.cloud.storage; polars is reported once, at its first import.
with DAG("features", schedule=None):
    BashOperator(task_id="fetch", bash_command="fetch.sh")

CLIENT = (google, storage.Client, DataFrame, polars)
