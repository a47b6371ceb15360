import pendulum
import requests
from airflow.sdk import DAG, task

with DAG("ping", schedule=None, start_date=pendulum.datetime(2026, 1, 1)):

    @task
    def ping() -> None:
        requests.get("https://example.com", timeout=5)

    ping()
