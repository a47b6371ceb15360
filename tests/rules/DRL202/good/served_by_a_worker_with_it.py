from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator
from airflow.sdk import DAG

with DAG("archive", schedule=None, default_args={"queue": "aws"}):
    S3CreateBucketOperator(task_id="bucket", bucket_name="lab-archive")
