from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("exports", schedule=None):
    BashOperator(task_id="dump", bash_command="pg_dump postgresql://app:hunter2@db:5432/prod")
    BashOperator(task_id="flush", bash_command="redis-cli -u redis://:s3cr3t@cache:6379 flushdb")
