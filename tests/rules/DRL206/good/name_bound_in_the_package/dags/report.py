from airflow.sdk import DAG, task
from common import OWNER

with DAG("report", schedule=None, tags=[OWNER]):

    @task
    def build() -> None:
        pass

    build()
