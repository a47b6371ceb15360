import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("known", schedule=None):
    BashOperator(task_id="first", bash_command="x")

# One report for the DAG, however many tasks it has.
with DAG(os.environ["DAG_ID"], schedule=None):
    BashOperator(task_id="second", bash_command="x")
    BashOperator(task_id="third", bash_command="x")
