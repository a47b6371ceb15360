from airflow.sdk import DAG, task
from opensearchpy import OpenSearch

with DAG("index_reports", schedule=None):

    @task
    def index() -> None:
        OpenSearch().index(index="reports", body={})

    index()
