from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("exports", schedule=None):
    BashOperator(task_id="dump", bash_command="pg_dump postgresql://app@db:5432/prod")
    BashOperator(task_id="fetch", bash_command="curl https://example.com:8443/data")
