"""amazon's DuckDB hook needs the duckdb package at import: the DAG processor runtime lists
it."""

from airflow.providers.amazon.aws.hooks.duckdb import AwsDuckDBHook
from airflow.sdk import DAG, task

with DAG("local_queries", schedule=None):

    @task
    def query() -> None:
        AwsDuckDBHook().get_conn()

    query()
