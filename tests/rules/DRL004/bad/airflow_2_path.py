from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

from airflow.operators.python import PythonOperator


def build() -> None:
    pass


with DAG("reports", schedule=None):
    PythonOperator(task_id="build", python_callable=build, provide_context=True, op_kwarg={})
