"""Nightly load of the orders export, on the Celery workers of the etl queue (Airflow 2)."""

from __future__ import annotations

from datetime import datetime

import pandas as pd
from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.providers.amazon.aws.sensors.s3 import S3KeySensor
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.providers.github.operators.github import GithubOperator

with DAG(
    "warehouse_orders",
    start_date=datetime(2024, 1, 1),
    schedule="@daily",
    catchup=False,
    default_args={"queue": "etl"},
):
    export_ready = S3KeySensor(
        task_id="export_ready",
        bucket_name="orders-export",
        bucket_key="{{ ds }}/orders.csv",
        deferrable=True,
    )

    @task
    def summarise(ds: str | None = None) -> int:
        frame = pd.read_csv(
            S3Hook().download_file(key=f"{ds}/orders.csv", bucket_name="orders-export")
        )
        return len(frame)

    load = SQLExecuteQueryOperator(
        task_id="load", conn_id="warehouse", sql="CALL load_orders('{{ ds }}')"
    )
    release = GithubOperator(
        task_id="tag_release",
        github_method="get_repo",
        github_method_args={"full_name_or_id": "acme/warehouse"},
    )
    report = BashOperator(task_id="report", bash_command="echo done")

    export_ready >> summarise() >> load >> release >> report
