from airflow.sdk import DAG, task
from common.features import columns

# The repository's own modules are on the import roots, not installed packages.
with DAG("features", schedule=None):

    @task
    def fit() -> None:
        import common.features

        print(columns(), common.features)

    fit()
