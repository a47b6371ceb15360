from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# queue=None is dropped when the DAG is serialized: the scheduler sends the task to
# [operators] default_queue ("main" here), not to the DAG's default_args queue.
with DAG("lab_report", schedule=None, default_args={"queue": "default"}):
    BashOperator(task_id="fetch", bash_command="fetch-samples", queue=None)
    BashOperator(task_id="render", bash_command="make report")
