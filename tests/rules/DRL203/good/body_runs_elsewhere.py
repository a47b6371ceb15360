from airflow.sdk import DAG, task

with DAG("features", schedule=None):

    # The image, not the worker, must have xgboost.
    @task.kubernetes(image="lab/xgboost:2", executor="KubernetesExecutor")
    def train() -> None:
        import xgboost

        print(xgboost.__version__)

    @task.virtualenv(requirements=["xgboost>=2"], system_site_packages=False)
    def score() -> None:
        import xgboost

        print(xgboost.__version__)

    train() >> score()
