"""Helpers that add tasks to the DAG or TaskGroup they are given."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator
from airflow.utils.task_group import TaskGroup


def add_quality_checks(group, tables):
    for table in tables:
        BashOperator(
            task_id=f"check_{table}",
            bash_command=f"dq {table}",
            queue="quality",
            task_group=group,
        )


def add_publish(dag, target):
    start = EmptyOperator(task_id=f"publish_{target}_start", dag=dag)
    push = BashOperator(task_id=f"publish_{target}", bash_command="push", pool="publish", dag=dag)
    start >> push
    return push


with DAG("helper_adds_tasks", start_date=datetime(2024, 1, 1), schedule=None) as dag:
    with TaskGroup("quality") as quality:
        add_quality_checks(quality, ["orders", "customers"])
    add_publish(dag, "s3")
    add_publish(dag, "gcs")
