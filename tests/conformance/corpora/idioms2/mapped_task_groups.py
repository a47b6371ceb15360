"""Mapped @task_group functions: .expand(), .partial(...).expand(...) and .expand_kwargs(...)."""

from datetime import datetime

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG, task, task_group
except ImportError:
    from airflow import DAG
    from airflow.decorators import task, task_group


@task_group
def per_region(region, queue):
    @task(queue="regions")
    def extract(name):
        return name

    BashOperator(task_id="load", bash_command="load", queue=queue, pool="loads")
    extract(region)


@task_group(group_id="tables")
def per_table(table, pool_slots):
    BashOperator(task_id="copy", bash_command="copy", pool_slots=pool_slots)


@task_group
def defaults(name, queue="fallback"):
    BashOperator(task_id="run", bash_command="run", queue=queue)


with DAG("mapped_task_groups", start_date=datetime(2024, 1, 1), schedule=None):
    per_region.partial(queue="partial_q").expand(region=["eu", "us"])
    per_table.partial(pool_slots=2).expand_kwargs([{"table": "a"}])
    per_table.partial(pool_slots=3).expand(table=["b", "c"])
    defaults.partial(queue="given").expand_kwargs([{"name": "x"}])
