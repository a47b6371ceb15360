"""Operator subclasses routing in __init__, functools.partial, and `global` set by a called function."""

import functools
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from common.operators import PodJob, ReportJob, SparkSubmitLite

ShellOnBatch = functools.partial(BashOperator, queue="batch-partial")

EXTRA_QUEUE = "unset"


def configure():
    global EXTRA_QUEUE
    EXTRA_QUEUE = "configured"


class SuperQueued(BashOperator):
    def __init__(self, **kw):
        super().__init__(queue="super-queued", **kw)


configure()

with DAG("operator_subclass_routing", start_date=datetime(2024, 1, 1), schedule=None):
    SuperQueued(task_id="super_queued", bash_command="run")
    SparkSubmitLite(task_id="spark", app="job.py")
    PodJob(task_id="pod", image="etl:1")
    PodJob(task_id="pod_local", image="etl:1", executor="LocalExecutor")
    ReportJob(task_id="report", report="daily")
    ShellOnBatch(task_id="partial", bash_command="run")
    BashOperator(task_id="global_queue", bash_command="run", queue=EXTRA_QUEUE)
