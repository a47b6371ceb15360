from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

with DAG("nightly", schedule=None, default_args={"pool": Variable.get("nightly_pool")}):
    BashOperator(task_id="export", bash_command="export.sh")
