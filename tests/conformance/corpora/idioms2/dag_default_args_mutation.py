"""default_args changed after the DAG is built, and between @dag(default_args=...) and the call."""

from datetime import datetime

from airflow import DAG
from airflow.decorators import dag, task
from airflow.operators.bash import BashOperator

built = DAG(
    "default_args_after_build",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args={"queue": "before"},
)
built.default_args["queue"] = "after"
BashOperator(task_id="after_build", bash_command="run", dag=built)

ARGS = {"queue": "decorated-before"}


@dag(
    dag_id="default_args_before_call",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args=ARGS,
)
def pipeline():
    @task
    def step():
        return 1

    step()


ARGS["queue"] = "decorated-after"
pipeline()
