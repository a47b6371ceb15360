import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Every queue the task may take is served: nothing to report, and no DRL105 either.
try:
    import pyarrow  # noqa: F401

    QUEUE = "imports"
except ImportError:
    QUEUE = "default"

with DAG("lab_report", schedule=None):
    BashOperator(task_id="load", bash_command="load", queue=QUEUE)
    BashOperator(
        task_id="copy",
        bash_command="copy",
        queue=os.environ.get("FAST") and "imports" or "default",
    )
