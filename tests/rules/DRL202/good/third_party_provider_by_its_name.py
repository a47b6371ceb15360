from airflow.sdk import DAG, task

# airflow.providers.foo.bar is apache-airflow-providers-foo-bar's by Airflow's naming rule, which
# the worker's runtime lists: not the guessed apache-airflow-providers-foo.
with DAG("foo_bar", schedule=None):

    @task
    def sync() -> None:
        from airflow.providers.foo.bar.hooks.sync import FooBarHook

        FooBarHook().sync()

    sync()
