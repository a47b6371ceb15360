from airflow.providers.amazon.aws.hooks.s3 import S3Hook


def upload(key: str) -> None:
    S3Hook().load_string("done", key=key, bucket_name="lab")
