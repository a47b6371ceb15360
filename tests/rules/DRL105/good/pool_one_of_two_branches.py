# Built in two branches with different pools: the pool is one of two known values (candidates),
# which DRL301 checks one by one; nothing is unresolved.
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("reports", schedule=None):
    if os.getenv("BIG"):
        BashOperator(task_id="render", bash_command="render.sh", queue="default", pool="big")
    else:
        BashOperator(task_id="render", bash_command="render.sh", queue="default", pool="small")
