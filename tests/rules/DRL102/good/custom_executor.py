from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Nothing is known about a custom executor's use of queues: no guess.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="train.sh", queue="gpu")
