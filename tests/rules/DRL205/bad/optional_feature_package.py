"""google is installed, but its LevelDB hook raises AirflowOptionalProviderFeatureException at
import without the plyvel package, which installing the provider does not bring."""

from airflow.providers.google.leveldb.hooks.leveldb import LevelDBHook
from airflow.sdk import DAG, task

with DAG("local_queries", schedule=None):

    @task
    def query() -> None:
        LevelDBHook().get_conn()

    query()
