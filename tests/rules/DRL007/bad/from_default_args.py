from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

with DAG("reports", schedule=None, default_args={"pool_slots": "4"}):
    BashOperator(task_id="build", bash_command="make report")
