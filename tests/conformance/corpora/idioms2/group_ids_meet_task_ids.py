"""@task_group ids that a task id meets: Airflow counts task ids among a DAG's used group ids, so
the group is suffixed (grp__1, or after the highest suffix a task id holds); the linter, which
does not know the order tasks and groups are made in, leaves such a group's id unknown."""

from datetime import datetime

from airflow import DAG
from airflow.decorators import task, task_group
from airflow.operators.empty import EmptyOperator


@task(queue="reports")
def t() -> None: ...


@task_group
def grp() -> None:
    t()


@task_group
def free() -> None:
    t()


with DAG("group_ids_meet_task_ids", start_date=datetime(2024, 1, 1), schedule=None):
    EmptyOperator(task_id="grp", queue="etl")
    grp()
    free()

with DAG("group_ids_meet_suffixed_task_ids", start_date=datetime(2024, 1, 1), schedule=None):
    EmptyOperator(task_id="grp__4", pool="etl_pool")
    grp()
    grp()
