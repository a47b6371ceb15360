from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    BashOperator.partial(task_id="load", pool="loader").expand(bash_command=["a.sh", "b.sh"])
