from airflow import DAG
from airflow.decorators import setup, task, teardown

with DAG("reports", schedule=None):

    @teardown(on_failure_fail_dagrun=True)
    def drop_bucket() -> None:
        pass

    drop_bucket()
