"""Reports computed with Spark on the workers that consume the heavy queue."""

from __future__ import annotations

from datetime import datetime

from airflow import DAG
from airflow.decorators import task
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator
from airflow.providers.github.hooks.github import GithubHook
from airflow.providers.http.operators.http import HttpOperator
from slugify import slugify

with DAG("spark_reports", start_date=datetime(2024, 1, 1), schedule="@weekly", catchup=False):
    build = SparkSubmitOperator(
        task_id="build", application="/opt/jobs/report.py", conn_id="spark", queue="heavy"
    )

    @task(queue="reports")
    def publish() -> str:
        from pyspark.sql import SparkSession

        session = SparkSession.builder.getOrCreate()
        GithubHook().get_conn()
        return slugify(session.version)

    notify = HttpOperator(task_id="notify", http_conn_id="hooks", endpoint="/reports")

    build >> publish() >> notify
