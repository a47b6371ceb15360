from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("fan_out", schedule=None):
    BashOperator.partial(task_id="run", queue="imports", pool="loaders", pool_slots=2).expand(
        bash_command=["a.sh", "b.sh"],
    )
