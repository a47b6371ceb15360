from airflow.sdk import DAG, task

with DAG("archive", schedule=None, default_args={"executor": "KubernetesExecutor"}):

    @task
    def count() -> int:
        from airflow.providers.postgres.hooks.postgres import PostgresHook

        return PostgresHook().get_first("select 1")[0]

    count()
