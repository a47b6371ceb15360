from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="x", executor="local", executor_config={"cpu": 4})
