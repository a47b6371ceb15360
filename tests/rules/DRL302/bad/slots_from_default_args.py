from airflow.sdk import dag, task


@task
def render() -> None:
    print("render")


@dag(schedule=None, default_args={"pool": "reports", "pool_slots": 16})
def nightly():
    render()
    render.override(task_id="small", pool_slots=1)()


nightly()
