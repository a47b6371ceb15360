from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("edge_jobs", schedule=None):
    BashOperator(task_id="anywhere", bash_command="measure", queue="rare")
