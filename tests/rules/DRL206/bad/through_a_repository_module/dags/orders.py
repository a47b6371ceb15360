from airflow.sdk import DAG, task
from common.tools import target

with DAG("orders", schedule=None):

    @task
    def load() -> None:
        print(target())

    load()
