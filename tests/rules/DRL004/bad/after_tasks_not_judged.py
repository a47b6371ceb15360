from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task
from lab.operators import LabOperator

# A TaskFlow task and an operator the tables do not know are not judged; the tasks after them are.
with DAG("reports", schedule=None):

    @task
    def extract() -> None:
        pass

    extract()
    LabOperator(task_id="lab", anything=1)
    BashOperator(task_id="build", bash_command="make report", queues="reports")
    BashOperator("make", "report", task_id="render")
