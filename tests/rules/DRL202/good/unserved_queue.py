from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.sdk import DAG, task

# No worker consumes "reports" (DRL101's business): no worker can lack the provider.
with DAG("archive", schedule=None):

    @task(queue="reports")
    def upload() -> None:
        S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    upload()
