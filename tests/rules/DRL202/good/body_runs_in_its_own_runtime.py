from airflow.sdk import DAG, task

with DAG("archive", schedule=None):

    # The body runs in a virtualenv built from requirements=, not in the worker's runtime.
    @task.virtualenv(requirements=["apache-airflow-providers-amazon"])
    def upload() -> None:
        from airflow.providers.amazon.aws.hooks.s3 import S3Hook

        S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    @task.external_python(python="/opt/venvs/pg/bin/python")
    def count() -> int:
        from airflow.providers.postgres.hooks.postgres import PostgresHook

        return PostgresHook().get_first("select 1")[0]

    upload() >> count()
