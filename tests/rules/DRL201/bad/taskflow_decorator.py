from airflow.sdk import dag, task


# @task.docker is registered by the docker provider: parsing the file needs it.
@task.docker(image="python:3.11-slim")
def compute() -> None:
    print("in a container")


@dag(schedule=None)
def archive():
    compute()


archive()
