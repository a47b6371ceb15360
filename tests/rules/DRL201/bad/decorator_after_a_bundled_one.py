from airflow.sdk import dag, task


# @task needs nothing beyond Airflow; the @task.docker after it still needs its provider.
@task
def prepare() -> None:
    print("ready")


@task.docker(image="python:3.11-slim")
def compute() -> None:
    print("in a container")


@dag(schedule=None)
def archive():
    prepare() >> compute()


archive()
