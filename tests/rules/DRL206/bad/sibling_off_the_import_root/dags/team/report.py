from airflow.sdk import DAG, task
from helpers import OWNER

# dags/ is on sys.path, dags/team/ is not: 'helpers' is not found.
with DAG("team_report", schedule=None, tags=[OWNER]):

    @task
    def build() -> None:
        pass

    build()
