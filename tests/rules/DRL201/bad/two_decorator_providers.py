from airflow.sdk import dag, task


# Each decorator needs its own provider, and the DAG processor runtime has neither.
@task.docker(image="python:3.11-slim")
def in_a_container() -> None:
    print("container")


@task.kubernetes(image="python:3.11-slim")
def in_a_pod() -> None:
    print("pod")


@dag(schedule=None)
def compute():
    in_a_container()
    in_a_pod()


compute()
