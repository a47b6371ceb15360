"""A DAG class chosen at import time by a condition no static tool decides: either spelling is
Airflow's DAG, so the DAG is seen, and the provider import fails the file that builds it."""

import os

from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator

if os.environ.get("LEGACY"):
    from airflow.models.dag import DAG
else:
    from airflow.sdk import DAG

with DAG("archive", schedule=None):
    S3CreateBucketOperator(task_id="bucket", bucket_name="lab-archive")
