from airflow.providers.amazon.aws.operators.s3 import S3DeleteBucketOperator
from airflow.sdk import DAG

with DAG("cleanup", schedule=None):
    S3DeleteBucketOperator(task_id="drop", bucket_name="reports", force_delete=True)
    S3DeleteBucketOperator(task_id="drop_logs", bucket_name="logs", force_delete=True)
