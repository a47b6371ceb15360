from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import dag, task


# EmptyOperator and @task need nothing beyond Airflow; the @task.docker after it still needs its provider.
@task
def prepare() -> None:
    print("ready")


@task.docker(image="python:3.11-slim")
def compute() -> None:
    print("in a container")


@dag(schedule=None)
def archive():
    EmptyOperator(task_id="start") >> prepare() >> compute()


archive()
