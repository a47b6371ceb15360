"""Helpers for the archive pipelines.

Its text never holds the word Airflow's file discovery looks for (beside "airflow"), so the
processor does not import this file on its own; the files that import it are judged instead.
"""

from airflow.providers.amazon.aws.hooks.s3 import S3Hook


def upload(key: str) -> None:
    S3Hook().load_string("done", key=key, bucket_name="lab")
