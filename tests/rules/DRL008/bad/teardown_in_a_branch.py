import os

from airflow import DAG
from airflow.decorators import teardown

with DAG("reports", schedule=None):
    if os.path.isdir("/"):

        @teardown(queue="reports")
        def drop_bucket() -> None:
            pass

        drop_bucket()
