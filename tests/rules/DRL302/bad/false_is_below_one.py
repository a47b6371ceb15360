from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# A bool is an int to BaseOperator: False is 0 slots, below 1 (ValueError when parsed).
with DAG("nightly", schedule=None):
    BashOperator(task_id="off", bash_command="x", pool_slots=False)
