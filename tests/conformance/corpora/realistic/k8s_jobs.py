"""Heavy batch jobs that run in pods; a few stay on the local executor."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from common.operators import PodJob
from common.platform import get_default_args

JOBS = {
    "compact_events": "spark:3.5",
    "rebuild_search": "search:2",
    "recompute_features": "features:8",
    "vacuum_lake": "lake-tools:1",
    "reindex_catalog": "search:2",
    "backfill_clicks": "spark:3.5",
    "snapshot_db": "pg-tools:15",
    "rotate_keys": "vault-tools:1",
}
LOCAL = {"rotate_keys", "snapshot_db"}

with DAG(
    "k8s_jobs",
    start_date=datetime(2024, 1, 1),
    schedule="@daily",
    catchup=False,
    default_args=get_default_args(owner="platform"),
):
    for name, image in JOBS.items():
        if name in LOCAL:
            job = PodJob(task_id=name, image=image, executor="LocalExecutor")
        else:
            job = PodJob(task_id=name, image=image)
        check = BashOperator(task_id=f"check_{name}", bash_command=f"check {name}")
        job >> check
