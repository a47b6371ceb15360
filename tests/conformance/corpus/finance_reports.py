"""Finance reports: default_args composed from shared dicts in every common way."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG
from common import BASE_ARGS, REPORTS_QUEUE, WAREHOUSE_ARGS
from common.defaults import BASE_ARGS as SHARED_DEFAULTS

START = datetime(2024, 1, 1)

# dict(BASE, queue=...)
with DAG(
    "finance_daily",
    schedule="@daily",
    start_date=START,
    default_args=dict(BASE_ARGS, queue=REPORTS_QUEUE, pool="finance"),
):
    BashOperator(task_id="daily_pnl", bash_command="make pnl")
    EmptyOperator(task_id="daily_done", queue="default")

# {**BASE, "queue": ...}
with DAG(
    "finance_weekly",
    schedule="@weekly",
    start_date=START,
    default_args={**SHARED_DEFAULTS, "queue": "reports-weekly", "pool_slots": 3},
):
    BashOperator(task_id="weekly_pnl", bash_command="make weekly-pnl")
    BashOperator(task_id="weekly_export", bash_command="make export", pool_slots=1)

# BASE | {...}
with DAG(
    "finance_monthly",
    schedule="@monthly",
    start_date=START,
    default_args=WAREHOUSE_ARGS | {"queue": "reports-monthly"},
):
    BashOperator(task_id="monthly_close", bash_command="make close")
    BashOperator(task_id="monthly_audit", bash_command="make audit", pool="audit")

# The shared dict unchanged, and a single key read out of it.
with DAG("finance_adhoc", schedule=None, start_date=START, default_args=BASE_ARGS):
    BashOperator(task_id="adhoc_query", bash_command="make query")
    BashOperator(
        task_id="adhoc_warehouse",
        bash_command="make warehouse",
        queue=WAREHOUSE_ARGS["queue"],
        pool=WAREHOUSE_ARGS["pool"],
        pool_slots=WAREHOUSE_ARGS["pool_slots"],
    )
