from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup

with DAG("nightly", schedule=None, default_args={"pool": "etl"}):
    BashOperator(task_id="extract", bash_command="extract.sh")
    with TaskGroup("load", default_args={"pool": "warehouse"}):
        BashOperator(task_id="copy", bash_command="copy.sh")
        BashOperator(task_id="index", bash_command="index.sh", pool="loaders")
