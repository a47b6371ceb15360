from airflow.sdk import DAG, task

with DAG("features", schedule=None):

    # With system_site_packages (the default) the worker's packages count too: pandas is there,
    # xgboost is in neither.
    @task.virtualenv(requirements=["numpy"])
    def score() -> None:
        import pandas
        import xgboost

        print(pandas.DataFrame(), xgboost.__version__)

    score()
