"""amazon is installed; two of its modules raise AirflowOptionalProviderFeatureException at
import, each without another package: both are reported."""

import airflow.providers.amazon.aws.executors.eks
import airflow.providers.amazon.aws.hooks.duckdb
from airflow.sdk import DAG, task

with DAG("local_queries", schedule=None):

    @task
    def query() -> None:
        pass

    query()
