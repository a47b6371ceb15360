from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.providers.postgres.hooks.postgres import PostgresHook
from airflow.sdk import DAG, task


@task
def copy() -> None:
    S3Hook().load_string(str(PostgresHook().get_first("select 1")), key="k", bucket_name="b")


with DAG("archive_daily", schedule="@daily"):
    copy()

with DAG("archive_weekly", schedule="@weekly"):
    copy()
