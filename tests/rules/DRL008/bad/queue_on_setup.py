from airflow import DAG
from airflow.decorators import setup, task, teardown

with DAG("reports", schedule=None):

    @setup(queue="reports")
    def create_bucket() -> None:
        pass

    create_bucket()
