import pandas as pd
from airflow.sdk import DAG, task

with DAG("features", schedule=None):

    @task(queue="ml")
    def fit() -> None:
        from sklearn.linear_model import LinearRegression

        LinearRegression().fit(pd.DataFrame({"x": [1]}), [1])

    fit()
