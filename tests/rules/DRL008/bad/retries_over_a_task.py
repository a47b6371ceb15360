from airflow import DAG
from airflow.decorators import setup, task, teardown

with DAG("reports", schedule=None):

    @task
    def build() -> None:
        pass

    @teardown(retries=3)
    @task
    def drop_bucket() -> None:
        pass

    build() >> drop_bucket()
