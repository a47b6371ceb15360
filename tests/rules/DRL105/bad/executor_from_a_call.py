import os

from airflow.sdk import dag, task


def pick_executor() -> str:
    return "KubernetesExecutor"


@task(executor=pick_executor(), pool_slots=int(os.environ["EXPORT_SLOTS"]))
def export() -> None:
    print("export")


@dag(schedule=None)
def nightly():
    export()


nightly()
