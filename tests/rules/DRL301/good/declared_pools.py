from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None, default_args={"pool": "loaders"}):
    BashOperator(task_id="copy", bash_command="copy.sh")
    BashOperator(task_id="render", bash_command="make report", pool="reports")
