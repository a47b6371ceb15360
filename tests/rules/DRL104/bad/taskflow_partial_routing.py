from airflow.sdk import dag, task


@task
def load(table: str, queue: str = "") -> None:
    print(table, queue)


@dag(schedule=None)
def fan_out():
    # .partial() binds function arguments: this queue never routes the task.
    load.partial(queue="imports").expand(table=["a", "b"])
    load.partial(pool="loaders").expand(table=["c"])


fan_out()
