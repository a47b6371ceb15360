import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# One of several known values is checked value by value (DRL101, DRL301...), not DRL105.
if os.environ.get("ENV") == "prod":
    QUEUE, POOL = "imports", "exports"
else:
    QUEUE, POOL = "default", "default_pool"

with DAG("nightly", schedule=None):
    BashOperator(task_id="export", bash_command="x", queue=QUEUE, pool=POOL)
    BashOperator(task_id="copy", bash_command="x", queue=f"{QUEUE}-fast" if QUEUE else "default")
