from airflow.sdk import DAG, task
from common.clients import search_client

with DAG("nightly", schedule=None):

    @task
    def refresh() -> None:
        search_client()

    refresh()
