from airflow.sdk import DAG, task
from shared.owners import OWNER

# dags/ is on sys.path, dags/team/ is not: the package 'shared' is not found.
with DAG("team_report", schedule=None, tags=[OWNER]):

    @task
    def build() -> None:
        pass

    build()
