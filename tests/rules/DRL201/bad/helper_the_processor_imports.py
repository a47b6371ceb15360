"""Helpers for the archive DAGs. It defines no DAG, but it names both words the DAG processor
looks for, so the processor imports it, and records the failed import as an import error."""

from airflow.providers.amazon.aws.hooks.s3 import S3Hook


def upload(key: str) -> None:
    S3Hook().load_string("done", key=key, bucket_name="lab")
