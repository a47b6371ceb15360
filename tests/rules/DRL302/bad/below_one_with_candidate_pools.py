import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

POOL = "reports" if os.environ.get("REPORTS") else "default_pool"

# Whichever pool it gets, the slots are below 1: one report, not one per pool.
with DAG("nightly", schedule=None):
    BashOperator(task_id="none", bash_command="x", pool=POOL, pool_slots=0)
