"""amazon is installed; its DuckDB hook, imported as a module of its package, raises
AirflowOptionalProviderFeatureException at import without the duckdb package."""

from airflow.providers.amazon.aws.hooks import duckdb
from airflow.sdk import DAG, task

with DAG("local_queries", schedule=None):

    @task
    def query() -> None:
        duckdb.AwsDuckDBHook().get_conn()

    query()
