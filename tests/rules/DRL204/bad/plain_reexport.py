from airflow import DAG
from airflow.providers.standard.operators.bash import BashOperator

# Still imports, but the Airflow 3 home of DAG is airflow.sdk.
with DAG("legacy", schedule=None):
    BashOperator(task_id="shell", bash_command="x")
