"""Nightly lab report: import results, build the report, publish it."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup, task

from common.routing import DEFAULT_ARGS, IMPORTS_QUEUE, REPORTS_QUEUE

with DAG(
    dag_id="lab_report",
    schedule="@daily",
    start_date=datetime(2026, 1, 1),
    default_args={**DEFAULT_ARGS, "queue": IMPORTS_QUEUE},
):
    fetch = BashOperator(task_id="fetch_results", bash_command="fetch-results --day {{ ds }}")

    with TaskGroup("grp", default_args={"pool": "reports"}):

        @task
        def build_report() -> str:
            import pandas

            return str(pandas.__version__)

        # The report workers were never deployed: nothing subscribes to `reports`.
        render = BashOperator(
            task_id="render", bash_command="render-report", queue=REPORTS_QUEUE
        )

        fetch >> build_report() >> render

    publish = BashOperator(task_id="publish", bash_command="publish-report", queue="default")
    render >> publish
