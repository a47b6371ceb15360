from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("fan_out", schedule=None):
    BashOperator.partial(task_id="run", bash_command="run.sh").expand(pool_slots=[1, 4])
