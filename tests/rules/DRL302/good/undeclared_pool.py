from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The pool is not declared (DRL301's business): its size is unknown, so no size to exceed.
with DAG("nightly", schedule=None):
    BashOperator(task_id="big", bash_command="x", pool="elsewhere", pool_slots=64)
