import foo_bar_sdk
from airflow.sdk import DAG, task

# No table names the distribution of foo_bar_sdk, and the listed third-party provider may
# require it: the runtime's lists prove it neither there nor missing, which is said once.
with DAG("foo_bar", schedule=None, tags=[foo_bar_sdk.__name__]):

    @task
    def sync() -> None:
        pass

    sync()
