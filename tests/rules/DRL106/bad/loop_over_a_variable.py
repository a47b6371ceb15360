from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

with DAG("loads", schedule=None):
    for table in Variable.get("tables", deserialize_json=True):
        BashOperator(task_id=f"load_{table}", bash_command=f"load {table}", queue="loads")
