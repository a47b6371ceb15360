from airflow import DAG
from airflow.decorators import task
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup

class ReportOperator(BashOperator):
    def __init__(self, report: str, **kwargs: object) -> None:
        super().__init__(bash_command=f"make {report}", **kwargs)


with DAG("reports", schedule=None):
    ReportOperator(task_id="build", report="daily")
