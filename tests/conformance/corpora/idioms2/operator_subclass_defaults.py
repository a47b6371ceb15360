"""Operator subclasses under default_args: signature defaults, setdefault, chains, self after init."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.utils.task_group import TaskGroup


class Pooled(BashOperator):
    pool = "class_pool"

    def __init__(self, *, pool="signature_pool", **kwargs):
        kwargs.setdefault("queue", "setdefault_queue")
        super().__init__(pool=pool, **kwargs)


class Slotted(Pooled):
    def __init__(self, job, **kwargs):
        super(Slotted, self).__init__(task_id=f"job_{job}", bash_command=job, **kwargs)
        self.pool_slots = 3


class Inherits(Slotted):
    pass


with DAG(
    "operator_subclass_defaults",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args={"pool": "dag_pool", "queue": "dag_queue"},
):
    Pooled(task_id="filled_from_default_args", bash_command="run")
    Pooled(task_id="given", bash_command="run", pool="given_pool", queue="given_queue")
    Slotted(job="chained")
    with TaskGroup("grouped", default_args={"pool": "group_pool"}):
        Pooled(task_id="in_group", bash_command="run")
        Inherits(job="inherited", queue="inherited_queue")

with DAG("operator_subclass_plain", start_date=datetime(2024, 1, 1), schedule=None):
    Pooled(task_id="signature_default", bash_command="run")
    Slotted(job="plain_chain", pool_slots=1)
