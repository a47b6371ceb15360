"""DAG and TaskGroup arguments, default_args included, spread from a config dict."""

from datetime import datetime

from airflow import DAG
from airflow.decorators import dag, task
from airflow.operators.bash import BashOperator
from airflow.utils.task_group import TaskGroup

DAG_CONFIG = {
    "start_date": datetime(2024, 1, 1),
    "schedule": None,
    "default_args": {"queue": "spread-dag", "pool": "spread_pool"},
}
CONFIG = {
    "schedule": None,
    "start_date": datetime(2024, 1, 1),
    "default_args": {"queue": "spread-deco"},
}
GROUP_CONFIG = {"default_args": {"queue": "spread-group", "pool_slots": 2}}

with DAG(dag_id="config_spread", **DAG_CONFIG):
    BashOperator(task_id="from_dag", bash_command="run")
    with TaskGroup("grp", **GROUP_CONFIG):
        BashOperator(task_id="from_group", bash_command="run")


@dag(dag_id="config_spread_deco", **CONFIG)
def spread():
    @task
    def inherits():
        return 1

    inherits()


spread()
