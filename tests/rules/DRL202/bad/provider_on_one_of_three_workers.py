from airflow.sdk import DAG, task

with DAG("archive", schedule=None):

    # Three Celery workers consume "imports"; only one of them has the provider.
    @task(queue="imports")
    def upload() -> None:
        from airflow.providers.amazon.aws.hooks.s3 import S3Hook

        S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    upload()
