from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# An empty executor_config asks nothing of the executor.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="train.sh", executor_config={})
