from airflow.sdk import DAG, setup

with DAG("reports", schedule=None):

    @setup(queue="reports", pool="buckets")
    def create_bucket() -> None:
        pass

    create_bucket()
