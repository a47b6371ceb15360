"""Nightly load of the orders export into the warehouse (Airflow 3 imports)."""

from __future__ import annotations

from datetime import datetime

import pendulum
from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.providers.amazon.aws.sensors.s3 import S3KeySensor
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.providers.github.operators.github import GithubOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task

with DAG("warehouse_orders", start_date=datetime(2025, 1, 1), schedule="@daily", catchup=False):
    export_ready = S3KeySensor(
        task_id="export_ready",
        bucket_name="orders-export",
        bucket_key="{{ ds }}/orders.csv",
        deferrable=True,
    )

    @task
    def summarise(ds: str | None = None) -> str:
        path = S3Hook().download_file(key=f"{ds}/orders.csv", bucket_name="orders-export")
        return f"{path} at {pendulum.now('UTC')}"

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
