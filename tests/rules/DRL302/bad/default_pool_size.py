from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Without a pool the task takes slots of default_pool, which holds 2 here.
with DAG("nightly", schedule=None):
    BashOperator(task_id="render", bash_command="x", pool_slots=3)
