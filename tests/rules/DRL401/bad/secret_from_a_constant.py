from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

DB_PASSWORD = "hunter2-prod"

# Folded from the module's constant: still a literal in the repository.
with DAG("exports", schedule=None):
    BashOperator(task_id="dump", bash_command="pg_dump", env={"DB_PASSWORD": DB_PASSWORD})
