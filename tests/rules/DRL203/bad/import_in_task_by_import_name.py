from airflow.sdk import DAG, task

with DAG("features", schedule=None):

    # "sklearn" is installed by the scikit-learn distribution, which only the ml runtime has.
    @task
    def fit() -> None:
        from sklearn.linear_model import LinearRegression

        LinearRegression()

    fit()
