"""A compatibility module as provider packages write one: a flag from Airflow's version, and the
names that moved, bound on each branch."""

from airflow import __version__ as AIRFLOW_VERSION
from packaging.version import Version

AIRFLOW_V_3_0_PLUS = Version(Version(AIRFLOW_VERSION).base_version) >= Version("3.0.0")

if AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import DAG, TaskGroup
else:
    from airflow.models.dag import DAG
    from airflow.utils.task_group import TaskGroup

__all__ = ["AIRFLOW_V_3_0_PLUS", "DAG", "TaskGroup"]
