from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.sdk import DAG, task

# amazon stops the file loading on the DAG processor (DRL201's report, not repeated here);
# the task's own import of postgres is still judged.
with DAG("archive", schedule=None):

    @task
    def count() -> None:
        from airflow.providers.postgres.hooks.postgres import PostgresHook

        PostgresHook().get_records("select 1")

    count()

HOOK = S3Hook
