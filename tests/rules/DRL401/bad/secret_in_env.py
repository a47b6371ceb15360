from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("exports", schedule=None):
    BashOperator(
        task_id="dump",
        bash_command="pg_dump prod > dump.sql",
        env={"PGUSER": "app", "DB_PASSWORD": "hunter2-prod"},
    )
