"""amazon and google are installed; two of their modules raise
AirflowOptionalProviderFeatureException at import, each without another package: both are
reported."""

import airflow.providers.amazon.aws.executors.eks
import airflow.providers.google.leveldb.hooks.leveldb
from airflow.sdk import DAG, task

with DAG("local_queries", schedule=None):

    @task
    def query() -> None:
        pass

    query()
