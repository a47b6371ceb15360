"""Dead branches, break/continue, a dag_id defined twice in one file."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

ENV = "dev"

if ENV == "prod":
    QUEUE = "prod-q"
else:
    QUEUE = "dev-q"

with DAG("dead_branches", start_date=datetime(2024, 1, 1), schedule=None):
    if False:
        BashOperator(task_id="never", bash_command="run")
    BashOperator(task_id="env_queue", bash_command="run", queue=QUEUE)
    for n in range(10):
        if n == 1:
            continue
        if n == 3:
            break
        BashOperator(task_id=f"loop_{n}", bash_command="run", pool_slots=n + 1)

dag = DAG("dead_branches_twice", start_date=datetime(2024, 1, 1), schedule=None)
BashOperator(task_id="first_def", bash_command="run", queue="first", dag=dag)
dag = DAG("dead_branches_twice", start_date=datetime(2024, 1, 1), schedule=None)
BashOperator(task_id="second_def", bash_command="run", queue="second", dag=dag)
