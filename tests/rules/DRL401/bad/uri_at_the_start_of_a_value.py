from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("exports", schedule=None):
    BashOperator(
        task_id="dump",
        bash_command="pg_dump $DATABASE_URL",
        env={"DATABASE_URL": "postgresql://app:hunter2@db/prod"},
    )
