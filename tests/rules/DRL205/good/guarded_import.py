from airflow.sdk import DAG, task

try:
    from opensearchpy import OpenSearch
except ImportError:
    OpenSearch = None

with DAG("index_reports", schedule=None):

    @task
    def index() -> None:
        if OpenSearch is not None:
            OpenSearch().index(index="reports", body={})

    index()
