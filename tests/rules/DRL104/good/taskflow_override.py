from airflow.sdk import dag, task


@task
def load(table: str, mode: str) -> None:
    print(table, mode)


@dag(schedule=None)
def fan_out():
    load.override(queue="imports", pool="loaders").partial(mode="full").expand(table=["a", "b"])


fan_out()
