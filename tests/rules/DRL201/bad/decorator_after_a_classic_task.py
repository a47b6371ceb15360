from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import dag, task


# A classic task comes first; the decorated one after it still needs its provider at parse.
@task.docker(image="python:3.11-slim")
def in_a_container() -> None:
    print("container")


@dag(schedule=None)
def compute():
    EmptyOperator(task_id="start") >> in_a_container()


compute()
