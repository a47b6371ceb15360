try:
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook
except ImportError:
    S3Hook = None


def upload(key: str) -> None:
    if S3Hook is not None:
        S3Hook().load_string("done", key=key, bucket_name="lab")
