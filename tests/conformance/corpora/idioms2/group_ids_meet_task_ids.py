"""@task_group ids that a task id meets: Airflow counts the task ids made so far among a DAG's
used group ids, so the group is suffixed (grp__1, or after the highest suffix a task id or group
holds), in the order the file makes tasks and groups."""

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

with DAG("group_ids_meet_later_task_ids", start_date=datetime(2024, 1, 1), schedule=None):
    grp()
    EmptyOperator(task_id="grp__3", queue="etl")
    grp()
    EmptyOperator(task_id="grp__9", queue="etl")


@task_group(group_id="load__1")
def load() -> None:
    t()


with DAG("group_ids_meet_only_full_ids", start_date=datetime(2024, 1, 1), schedule=None):
    EmptyOperator(task_id="x.y.grp", queue="etl")
    grp()
    EmptyOperator(task_id="x.grp__2", queue="etl")
    grp()
    EmptyOperator(task_id="load__7", queue="etl")
    load()
