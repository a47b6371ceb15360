from airflow.sdk import dag, task


@task.docker(image="python:3.11-slim", queue="aws")
def compute() -> None:
    print("in a container")


@dag(schedule=None)
def archive():
    compute()


archive()
