from airflow.sdk import DAG, task
from sklearn.cluster import KMeans

# The import name is sklearn; the distribution the runtime would list is scikit-learn.
with DAG("segments", schedule=None):

    @task
    def fit() -> None:
        KMeans(n_clusters=3)

    fit()
