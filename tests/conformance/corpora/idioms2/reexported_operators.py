"""Operators re-exported by a repository module's try/except ImportError, chain by a version flag.

The operators come from ``common.operator_compat`` (the system tests' ``tests_common`` compat
form) and ``chain`` from a shim chosen by a version flag (the system tests' form): Airflow holds
the re-exported classes, and ``chain`` links either way."""

from datetime import datetime

from airflow import DAG
from common import operator_compat
from common.operator_compat import BashOperator, EmptyOperator
from common.system_test_version_compat import AIRFLOW_V_3_0_PLUS

if AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import chain, cross_downstream
else:
    from airflow.models.baseoperator import chain, cross_downstream

with DAG(
    "reexported_operators",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args={"queue": "compat_queue"},
):
    start = EmptyOperator(task_id="start", on_success_callback=lambda context: None)
    extract = BashOperator(task_id="extract", bash_command="echo extract", pool="compat_pool")
    load = operator_compat.BashOperator(task_id="load", bash_command="echo load", pool_slots=2)
    report = operator_compat.PythonOperator(task_id="report", python_callable=lambda: None)
    end = EmptyOperator(task_id="end", queue="end_queue")
    chain(start, extract, load)
    cross_downstream([load], [report, end])
