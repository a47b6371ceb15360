import airflow.providers.postgres.hooks.postgres as pg
from airflow.sdk import DAG, task

with DAG("archive", schedule=None):

    @task
    def count() -> int:
        return pg.PostgresHook().get_first("select 1")[0]

    count()
