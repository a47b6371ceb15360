from airflow.sdk import DAG, task

# The import runs on the worker only, which has opensearch-py.
with DAG("index_reports", schedule=None):

    @task
    def index() -> None:
        from opensearchpy import OpenSearch

        OpenSearch().index(index="reports", body={})

    index()
