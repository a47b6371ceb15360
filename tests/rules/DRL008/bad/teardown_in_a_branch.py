import os

from airflow.sdk import DAG, teardown

with DAG("reports", schedule=None):
    if os.environ.get("CLEAN_UP"):

        @teardown(queue="reports")
        def drop_bucket() -> None:
            pass

        drop_bucket()
