from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("lab_report", schedule=None):
    BashOperator(task_id="render", bash_command="make report")  # noqa: E501
