# Airflow 3.3 moved the task-control exceptions to the task SDK: the old path warns.
from airflow.exceptions import AirflowSkipException
from airflow.sdk import DAG, task

with DAG("legacy", schedule=None):

    @task
    def maybe() -> None:
        raise AirflowSkipException("nothing to do")

    maybe()
