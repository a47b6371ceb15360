from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task


@task
def summarise() -> None:
    print("done")


with DAG("lab_report", schedule=None):
    BashOperator(task_id="fetch", bash_command="fetch-samples") >> summarise()
