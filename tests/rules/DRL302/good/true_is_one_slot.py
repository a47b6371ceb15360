from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# A bool is an int to BaseOperator: True is one slot, which the pool has.
with DAG("nightly", schedule=None):
    BashOperator(task_id="on", bash_command="x", pool="reports", pool_slots=True)
