from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# What a custom executor reads is not known: no guess.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="train.sh", executor_config={"gpu": 1})
