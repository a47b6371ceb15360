from airflow.sdk import DAG, task
from common import storage
from common.storage import upload

with DAG("archive", schedule=None):

    @task
    def flag() -> None:
        upload("archive/flag")
        storage.upload("archive/done")

    flag()
