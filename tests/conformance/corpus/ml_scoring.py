"""Batch scoring: imported default_args, `@task_group(default_args=...)`, mapped TaskFlow."""

from datetime import datetime

from airflow.sdk import dag, task, task_group
from common.defaults import BASE_ARGS
from common.routing import GPU_QUEUE, IO_QUEUE


@dag(
    dag_id="ml_scoring",
    schedule="@hourly",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args=BASE_ARGS,
)
def scoring():
    @task
    def list_batches():
        return [1, 2, 3]

    @task
    def score(batch: int, model: str = "latest"):
        return batch

    @task_group(default_args={"queue": GPU_QUEUE, "pool": "gpu_pool"})
    def gpu_scoring(batches):
        @task
        def warm_up():
            return True

        warm_up()
        # Routing of a mapped TaskFlow task comes from .override(), never from expand().
        score.override(task_id="score_gpu").expand(batch=batches)
        score.override(task_id="score_gpu_pinned", queue="ml-gpu-a100").expand(batch=batches)

    @task_group(group_id="exports", default_args={"pool": "exports_pool", "pool_slots": 2})
    def export_group():
        @task(queue=IO_QUEUE)
        def export_parquet():
            return "s3://bucket/out"

        @task
        def export_csv():
            return "s3://bucket/out.csv"

        export_parquet()
        export_csv()

    batches = list_batches()
    score.override(queue="scoring").expand(batch=batches)
    # .partial() binds function arguments only.
    score.partial(model="champion").expand(batch=batches)
    score.expand(batch=[10, 20])
    gpu_scoring(batches)
    export_group()


scoring()
