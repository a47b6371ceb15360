import os

from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.sdk import DAG, task

with DAG(os.environ["ARCHIVE_DAG"], schedule=None):

    @task
    def upload() -> None:
        S3Hook().load_string("done", key="k", bucket_name="lab")

    upload()
