from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

TABLES = ["orders", "customers"]

with DAG("loads", schedule=None):
    for table in TABLES:
        BashOperator(task_id=f"load_{table}", bash_command=f"load {table}", queue="loads")
