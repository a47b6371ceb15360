import json
import statistics

import pendulum
import requests
from airflow.sdk import DAG, task

# The standard library and what installing Airflow brings (pendulum, requests) never count.
with DAG("features", schedule=None, start_date=pendulum.datetime(2026, 1, 1)):

    @task
    def fetch() -> str:
        return json.dumps(statistics.mean([1, 2])) + requests.__version__

    fetch()
