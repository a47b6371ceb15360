from airflow.exceptions import AirflowSkipException
from airflow.sdk import DAG, task

with DAG("modern", schedule=None):

    @task
    def maybe() -> None:
        raise AirflowSkipException("nothing to do")

    maybe()
