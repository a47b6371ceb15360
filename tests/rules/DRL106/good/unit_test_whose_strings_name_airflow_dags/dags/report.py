from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("report", schedule=None):
    BashOperator(task_id="render", bash_command="make report")
