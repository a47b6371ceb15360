from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Every task inherits the DAG's queue, so both are reported.
with DAG("lab_report", schedule=None, default_args={"queue": "reports"}):
    BashOperator(task_id="fetch", bash_command="fetch-samples")
    BashOperator(task_id="render", bash_command="make report")
