from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# executor=None (the default) means the first configured executor.
with DAG("train", schedule=None, default_args={"executor": "gpu"}):
    BashOperator(task_id="prepare", bash_command="prepare.sh", executor=None)
    BashOperator(task_id="fit", bash_command="train.sh")
