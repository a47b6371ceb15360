"""Tasks whose bodies run in a non-Python SDK runtime: `@task.stub`."""

from datetime import datetime

from airflow.sdk import dag, task


@dag(schedule=None, start_date=datetime(2024, 1, 1), default_args={"queue": "jvm"})
def java_bridge():
    # @task.stub passes queue=None explicitly, so default_args["queue"] never reaches it.
    @task.stub
    def compile_report(): ...

    @task.stub(queue="jvm-large")
    def render_report(): ...

    @task
    def announce():
        return "done"

    compile_report() >> render_report() >> announce()


java_bridge()
