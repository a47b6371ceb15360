from airflow.sdk import DAG, task
from shared.owners import OWNER

# dags/ is on sys.path: the package is team.shared there, not shared.
with DAG("orders", schedule=None, tags=[OWNER]):

    @task
    def load() -> None:
        pass

    load()
