from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task

COMMON = {"queue": "default"}

# A TaskFlow task comes first; the classic task after it is still judged.
with DAG("reports", schedule=None):

    @task(queue="reports")
    def extract() -> None:
        pass

    extract()
    BashOperator(task_id="build", bash_command="make report", queue="reports", **COMMON)
