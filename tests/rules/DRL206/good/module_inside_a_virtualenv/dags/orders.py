from airflow.sdk import DAG, task
from shared.owners import OWNER

# env/ is a virtual environment (it holds pyvenv.cfg): its packages are installed ones, not the
# repository's modules, so 'shared' is a third-party package here.
with DAG("orders", schedule=None, tags=[OWNER]):

    @task
    def load() -> None:
        pass

    load()
