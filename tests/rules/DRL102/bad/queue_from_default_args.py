from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup

with DAG("train", schedule=None, default_args={"queue": "gpu"}):
    BashOperator(task_id="prepare", bash_command="prepare.sh")
    with TaskGroup("model", default_args={"queue": "large"}):
        BashOperator(task_id="fit", bash_command="train.sh")
