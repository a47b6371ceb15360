from airflow.sdk import dag, task


@task(queue="heavy")
def crunch() -> None:
    print("crunch")


@dag(schedule=None)
def nightly():
    crunch()


nightly()
