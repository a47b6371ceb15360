from airflow.sdk import dag, task


@task(pool="gpu")
def fit() -> None:
    print("fit")


@dag(schedule=None)
def nightly():
    fit()
    fit.override(task_id="fit_small", pool="cpu")()


nightly()
