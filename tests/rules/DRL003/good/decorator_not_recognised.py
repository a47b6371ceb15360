import sys

from airflow import DAG
from airflow.operators.empty import EmptyOperator

if sys.version_info >= (3, 0):
    from airflow.decorators import task_group
else:
    from airflow.utils.task_group import task_group

with DAG("exports", schedule=None):

    @task_group(group_id="eu")
    def eu():
        EmptyOperator(task_id="start")

    @task_group(group_id="us")
    def us():
        EmptyOperator(task_id="start")

    eu()
    us()
