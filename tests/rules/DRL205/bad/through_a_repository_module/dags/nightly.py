from airflow.sdk import DAG, task
from common import search_client

# Importing common runs common/__init__.py, which imports common.clients, which imports opensearchpy.
with DAG("nightly", schedule=None):

    @task
    def refresh() -> None:
        search_client().indices.refresh()

    refresh()
