from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, TaskGroup, task

with DAG("modern", schedule=None):
    with TaskGroup("group"):
        EmptyOperator(task_id="start") >> BashOperator(task_id="shell", bash_command="x")
    task(print)()
