"""DAG arguments given through ``**`` spreads merged with ``|``, whose ``default_args`` hold an
environment value beside the routing keys: the routing keys are read one by one."""

import os
from datetime import datetime

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG


def dag_defaults():
    return {"start_date": datetime(2024, 1, 1), "schedule": None, "catchup": False}


def dbt_args():
    return {"cwd": os.getenv("DBT_DIR"), "queue": "spread_dbt", "pool": "spread_pool"}


dag_args = dag_defaults() | {"default_args": dbt_args()}

with DAG("spread_default_args", **dag_args):
    BashOperator(task_id="run", bash_command="echo run")
    BashOperator(task_id="test", bash_command="echo test", queue="spread_test")

with DAG("spread_literal_default_args", **{**dag_defaults(), "default_args": {"pool_slots": 2}}):
    BashOperator(task_id="seed", bash_command="echo seed")
