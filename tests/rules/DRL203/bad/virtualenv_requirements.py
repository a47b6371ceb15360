from airflow.sdk import DAG, task

with DAG("features", schedule=None):

    # The venv sees only what requirements= installs.
    @task.virtualenv(requirements=["numpy"], system_site_packages=False)
    def score() -> None:
        import numpy
        import pandas

        print(numpy.zeros(1), pandas.DataFrame())

    score()
