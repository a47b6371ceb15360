from airflow.sdk import dag, task


@task(queue="reports")
def render() -> None:
    print("render")


@task
def archive() -> None:
    print("archive")


@dag(schedule=None)
def lab_report():
    render()
    archive.override(queue="archives")()


lab_report()
