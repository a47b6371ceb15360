from airflow.sdk import DAG, task
from common.storage import upload

# Loading this file runs common/storage.py, whose module-level import needs the amazon provider.
with DAG("archive", schedule=None):

    @task
    def flag() -> None:
        upload("archive/flag")

    flag()
