from airflow.sdk import DAG, task
from common.storag import upload

with DAG("archive", schedule=None):

    @task
    def flag() -> None:
        upload("archive/flag")

    flag()
