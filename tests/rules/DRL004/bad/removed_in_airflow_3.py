from airflow.operators.bash import BashOperator
from airflow.sdk import DAG

# An Airflow 2 import path, forwarded by Airflow 3 to the standard provider's BashOperator,
# which no longer takes task_concurrency (Airflow 2's class did).
with DAG("reports", schedule=None):
    BashOperator(task_id="build", bash_command="make report", task_concurrency=1)
