from airflow.sdk import dag, task


@task
def pull(api_key: str = "") -> None:
    print(len(api_key))


# default_args are rendered into every task's arguments.
@dag(schedule=None, default_args={"op_kwargs": {"apiKey": "sk-live-4f9a8b7c"}})
def exports():
    pull()


exports()
