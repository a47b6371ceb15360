from airflow.sdk import DAG, task

# The handler raises: the file fails to load all the same, so the import is not guarded.
try:
    from opensearchpy import OpenSearch
except ImportError as error:
    raise RuntimeError("index_reports needs opensearch-py") from error

with DAG("index_reports", schedule=None):

    @task
    def index() -> None:
        OpenSearch().index(index="reports", body={})

    index()
