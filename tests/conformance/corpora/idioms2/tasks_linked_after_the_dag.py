"""Tasks made after the `with DAG` block, joined to it by `>>` from `list(dag.tasks)`."""

from datetime import datetime

from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator


@task(queue="watch")
def watcher():
    """Fails the run when a task before it failed (the providers' system-test idiom)."""


with DAG("tasks_linked_after_the_dag", start_date=datetime(2024, 1, 1), schedule=None) as dag:
    BashOperator(task_id="extract", bash_command="run", queue="etl")
    BashOperator(task_id="load", bash_command="run", pool_slots=2)

list(dag.tasks) >> watcher()
