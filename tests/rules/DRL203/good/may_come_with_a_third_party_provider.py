from airflow.sdk import DAG, task

# No table names the distribution of foo_bar_sdk, and the listed third-party provider may
# require it: the worker's lists do not prove it missing (DRL902 says so), so DRL203 asserts
# nothing.
with DAG("foo_bar", schedule=None):

    @task
    def sync() -> None:
        import foo_bar_sdk

        foo_bar_sdk.sync()

    sync()
