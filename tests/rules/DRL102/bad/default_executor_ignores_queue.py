from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Written for the Airflow 2 hybrid executor, where queue="kubernetes" chose the executor.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="train.sh", queue="kubernetes")
