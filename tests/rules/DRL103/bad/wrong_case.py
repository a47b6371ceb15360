from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Executor names are matched exactly, case included.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="train.sh", executor="celeryexecutor")
