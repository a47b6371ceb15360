"""Routing assigned on tasks after they are built."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

LARGE = True

with DAG("task_attribute_assign", start_date=datetime(2024, 1, 1), schedule=None) as dag:
    first = BashOperator(task_id="first", bash_command="run", pool="first_pool")
    sized = BashOperator(task_id="sized", bash_command="run", queue="small")
    if LARGE:
        sized.queue = "large"
    slotted = BashOperator(task_id="slotted", bash_command="run")
    setattr(slotted, "pool_slots", 3)

for t in dag.tasks:
    t.executor = "LocalExecutor"
dag.tasks[0].pool = "reassigned_pool"
