from typing import TYPE_CHECKING

from airflow.sdk import DAG, task

try:
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook
except ImportError:
    S3Hook = None

if TYPE_CHECKING:
    from airflow.providers.postgres.hooks.postgres import PostgresHook

with DAG("archive", schedule=None):

    @task
    def upload(hook: "PostgresHook | None" = None) -> None:
        if S3Hook is not None:
            S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    upload()
