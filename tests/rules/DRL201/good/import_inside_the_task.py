from airflow.sdk import DAG, task

with DAG("archive", schedule=None):

    @task
    def upload() -> None:
        # Runs on the worker only, never while the DAG processor parses the file.
        from airflow.providers.amazon.aws.hooks.s3 import S3Hook

        S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    upload()
