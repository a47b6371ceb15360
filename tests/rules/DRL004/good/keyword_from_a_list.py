from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

ARGS = ["make report"]

with DAG("reports", schedule=None):
    BashOperator(task_id="build", bash_command=ARGS[0])
