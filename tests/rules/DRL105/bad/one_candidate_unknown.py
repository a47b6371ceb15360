import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# A branch whose value is not known makes the whole value unknown, never a partial set.
QUEUE = os.environ["QUEUE"] if os.environ.get("CUSTOM") else "default"

with DAG("nightly", schedule=None):
    BashOperator(task_id="export", bash_command="x", queue=QUEUE)
