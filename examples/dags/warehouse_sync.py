"""Hourly sync of the warehouse with the lab database, and a Spark aggregation on Kubernetes."""

from datetime import datetime

from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator
from airflow.providers.postgres.operators.postgres import PostgresOperator
from airflow.sdk import dag, task


@dag(schedule="@hourly", start_date=datetime(2026, 1, 1), default_args={"retries": 1})
def warehouse_sync():
    @task(queue="imports")
    def extract_rows() -> list[int]:
        import requests

        return [len(requests.__version__)]

    load = PostgresOperator(task_id="load", postgres_conn_id="lab_db", sql="select 1")

    # Runs in its own pod: the spark image has the Spark provider, the Celery workers do not.
    aggregate = SparkSubmitOperator(
        task_id="aggregate",
        application="/opt/jobs/aggregate.py",
        executor="KubernetesExecutor",
    )

    extract_rows() >> load >> aggregate


warehouse_sync()
