"""google is installed; its LevelDB hook, imported as a module of its package, raises
AirflowOptionalProviderFeatureException at import without the plyvel package."""

from airflow.providers.google.leveldb.hooks import leveldb
from airflow.sdk import DAG, task

with DAG("local_queries", schedule=None):

    @task
    def query() -> None:
        leveldb.LevelDBHook().get_conn()

    query()
