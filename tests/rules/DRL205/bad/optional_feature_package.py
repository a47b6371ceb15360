"""amazon is installed, but its DuckDB hook raises AirflowOptionalProviderFeatureException at
import without the duckdb package."""

from airflow.providers.amazon.aws.hooks.duckdb import AwsDuckDBHook
from airflow.sdk import DAG, task

with DAG("local_queries", schedule=None):

    @task
    def query() -> None:
        AwsDuckDBHook().get_conn()

    query()
