"""A DAG class chosen at import time: the DAG is not seen statically, the provider import still
fails the file."""

import os

from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator

if os.environ.get("LEGACY"):
    from airflow.models.dag import DAG
else:
    from airflow.sdk import DAG

with DAG("archive", schedule=None):
    S3CreateBucketOperator(task_id="bucket", bucket_name="lab-archive")
