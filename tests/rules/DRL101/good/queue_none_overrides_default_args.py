from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# An explicit queue=None beats default_args: the task goes to the default queue, which is served.
with DAG("lab_report", schedule=None, default_args={"queue": "reports"}):
    BashOperator(task_id="render", bash_command="make report", queue=None)
