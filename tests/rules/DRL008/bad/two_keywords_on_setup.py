from airflow import DAG
from airflow.decorators import setup

with DAG("reports", schedule=None):

    @setup(queue="reports", pool="buckets")
    def create_bucket() -> None:
        pass

    create_bucket()
