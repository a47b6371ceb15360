from airflow.providers.amazon.aws.hooks.s3 import S3Hook

BUCKET = "lab"
HOOK = S3Hook
