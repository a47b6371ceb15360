import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

with DAG("exports", schedule=None):
    BashOperator(
        task_id="dump",
        bash_command="pg_dump",
        env={"PGPASSWORD": os.environ["PGPASSWORD"], "API_KEY": Variable.get("api_key")},
    )
