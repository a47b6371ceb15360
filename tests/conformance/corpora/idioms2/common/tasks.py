"""TaskFlow tasks shared across DAGs (the decorator runs here, the task is made in the DAG)."""

from airflow.decorators import task


@task(queue="etl")
def extract(source: str) -> str:
    return source


@task(queue="etl", pool="warehouse", pool_slots=2)
def load(rows: str) -> None:
    print(rows)


@task
def audit() -> None:
    print("audit")
