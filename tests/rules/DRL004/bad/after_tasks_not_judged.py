from airflow import DAG
from airflow.decorators import task
from airflow.models import BaseOperator
from airflow.operators.bash import BashOperator


class LabOperator(BaseOperator):
    def __init__(self, anything: int = 0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.anything = anything


# A TaskFlow task and an operator the tables do not know are not judged; the tasks after them are.
with DAG("reports", schedule=None):

    @task
    def extract() -> None:
        pass

    extract()
    LabOperator(task_id="lab", anything=1)
    BashOperator(task_id="build", bash_command="make report", queues="reports")
