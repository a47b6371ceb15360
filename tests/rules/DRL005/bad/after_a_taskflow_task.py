from airflow.operators.bash import BashOperator
from airflow import DAG
from airflow.decorators import task

COMMON = {"queue": "default"}

# A TaskFlow task comes first; the classic task after it is still judged.
with DAG("reports", schedule=None):

    @task(queue="reports")
    def extract() -> None:
        pass

    extract()
    BashOperator(task_id="build", bash_command="make report", queue="reports", **COMMON)
