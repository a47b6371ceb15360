from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The provider is imported by a repository module this file imports at module level.
from common.storage import BUCKET

with DAG("report", schedule=None):
    BashOperator(task_id="upload", bash_command=f"upload {BUCKET}")
