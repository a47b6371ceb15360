from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Without [pools] the inventory says nothing about pools: nothing to check against.
with DAG("nightly", schedule=None):
    BashOperator(task_id="render", bash_command="make report", pool="anything")
