import os

from airflow import DAG
from airflow.operators.empty import EmptyOperator

# Two ids the linter cannot know are not the same id.
with DAG("exports", schedule=None):
    EmptyOperator(task_id=os.environ["FIRST_TASK"])
    EmptyOperator(task_id=os.environ["SECOND_TASK"])
