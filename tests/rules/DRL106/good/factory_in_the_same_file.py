from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG


def load(table: str, queue: str = "loads") -> BashOperator:
    return BashOperator(task_id=f"load_{table}", bash_command=f"load {table}", queue=queue)


with DAG("loads", schedule=None):
    load("orders")
    load("customers", queue="default")
