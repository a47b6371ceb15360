from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator
from airflow.sdk import DAG

with DAG("buckets", schedule=None):
    S3CreateBucketOperator(task_id="make", bucket_name="reports")
