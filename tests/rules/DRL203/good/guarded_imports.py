from typing import TYPE_CHECKING

from airflow.sdk import DAG, task

try:
    import polars
except ImportError:
    polars = None

if TYPE_CHECKING:
    import xgboost

with DAG("features", schedule=None):

    @task
    def fit(model: "xgboost.Booster | None" = None) -> None:
        print(polars)

    fit()
