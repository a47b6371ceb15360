"""Reporting DAGs written with TaskFlow: shared @task functions, overrides and mapping."""

from datetime import datetime

from airflow.decorators import dag, task
from common.platform import QUEUES
from common.tasks import compute, publish, refresh_shard, shard_ids

METRICS = ["revenue", "orders", "aov", "margin", "returns", "nps", "active_users", "churn"]


@dag(dag_id="reporting_daily", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False)
def reporting_daily():
    for metric in METRICS:
        value = compute.override(task_id=f"compute_{metric}")(metric)
        publish.override(task_id=f"publish_{metric}")(value)


@dag(dag_id="reporting_shards", start_date=datetime(2024, 1, 1), schedule=None, catchup=False)
def reporting_shards():
    refresh_shard.expand(shard=shard_ids(16))

    @task(queue=QUEUES.EXPORT)
    def summary():
        return "ok"

    summary()


reporting_daily()
reporting_shards()
