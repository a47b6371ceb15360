from datetime import datetime

from airflow import DAG
from airflow.decorators import task

with DAG("reports", schedule=None, start_date=datetime(2024, 1, 1)):

    @task(multiple_outputs="yes")
    def build() -> dict[str, int]:
        return {"rows": 1}

    build()
