from airflow.exceptions import AirflowException
from airflow.sdk import DAG, task

with DAG("modern", schedule=None):

    @task
    def maybe() -> None:
        raise AirflowException("nothing to do")

    maybe()
