"""Imports chosen by a flag computed from Airflow's version in the file itself: one branch runs
on Airflow 3, the other on Airflow 2, and both build the same DAG."""

from datetime import datetime

from airflow import __version__ as AIRFLOW_VERSION
from airflow.operators.bash import BashOperator
from packaging.version import Version

AIRFLOW_V_3_0_PLUS = Version(Version(AIRFLOW_VERSION).base_version) >= Version("3.0.0")

if AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import DAG, TaskGroup, task
else:
    from airflow.decorators import task
    from airflow.models.dag import DAG
    from airflow.utils.task_group import TaskGroup

with DAG(
    "version_flag_shim",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args={"queue": "shim_queue", "pool": "shim_pool"},
):
    BashOperator(task_id="extract", bash_command="echo extract")
    with TaskGroup("load", default_args={"queue": "shim_load"}):

        @task(pool_slots=2)
        def write():
            return 1

        write()
        BashOperator(task_id="check", bash_command="echo check", pool="check_pool")
