from airflow.sdk import DAG, TaskGroup, task


@task
def upload() -> None:
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook

    S3Hook().load_string("done", key="archive/flag", bucket_name="lab")


with DAG("archive", schedule=None, default_args={"queue": "aws"}):
    upload()
    with TaskGroup("fallback", default_args={"queue": "default"}):
        upload()
