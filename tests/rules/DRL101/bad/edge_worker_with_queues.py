from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("edge_jobs", schedule=None):
    BashOperator(task_id="on_site", bash_command="measure", queue="site-a")
    BashOperator(task_id="elsewhere", bash_command="measure", queue="site-b")
