"""Operator factories the DAG files call: each builds and returns one airflow task."""

from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator

NOTIFY_QUEUE = "notify"


def slack_op(dag, tid, q="manager"):
    """A Slack notification step; most teams keep the manager queue."""
    return BashOperator(
        task_id=f"slack_{tid}",
        bash_command=f"notify-slack --channel {tid}",
        queue=q,
        dag=dag,
    )


def pager_op(name, pool="alerts", **kwargs):
    """A paging step; extra keyword arguments reach the operator."""
    return BashOperator(
        task_id=f"page_{name}", bash_command="page-oncall", pool=pool, queue=NOTIFY_QUEUE, **kwargs
    )


def python_step(task_id, func, slots=1):
    return PythonOperator(task_id=task_id, python_callable=func, pool_slots=slots)
