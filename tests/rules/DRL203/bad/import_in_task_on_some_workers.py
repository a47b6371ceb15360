from airflow.sdk import DAG, task

with DAG("features", schedule=None):

    @task(queue="shared")
    def fit() -> None:
        import sklearn

        print(sklearn.__version__)

    fit()
