from airflow import DAG
from airflow.decorators import setup, task, teardown

with DAG("reports", schedule=None):

    @task(queue="reports")
    def create_bucket() -> None:
        pass

    @task
    def drop_bucket() -> None:
        pass

    create_bucket().as_setup() >> drop_bucket().as_teardown()
