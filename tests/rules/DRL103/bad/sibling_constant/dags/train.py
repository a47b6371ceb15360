from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.executors import PODS

with DAG("train", schedule=None, default_args={"executor": PODS}):
    BashOperator(task_id="fit", bash_command="train.sh")
