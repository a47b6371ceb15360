from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup

with DAG("lab_report", schedule=None, default_args={"queue": "imports"}):
    BashOperator(task_id="fetch", bash_command="fetch-samples")
    with TaskGroup("publish", default_args={"queue": "reports"}):
        BashOperator(task_id="render", bash_command="make report")
        # The task's own queue wins over the group's.
        BashOperator(task_id="archive", bash_command="archive", queue="imports")
