from airflow.sdk import DAG, task

from .helpers import OWNER

with DAG("team_report", schedule=None, tags=[OWNER]):

    @task
    def build() -> None:
        pass

    build()
