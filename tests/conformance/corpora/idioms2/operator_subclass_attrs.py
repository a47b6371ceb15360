"""Operator subclasses that set routing: class attribute, __init__ defaults, setdefault."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from common.operators import ClassQueueOperator, SparkSubmitLite


class LocalBash(BashOperator):
    def __init__(self, *, pool="local_pool", **kwargs):
        super().__init__(pool=pool, **kwargs)


with DAG("operator_subclass_attrs", start_date=datetime(2024, 1, 1), schedule=None):
    ClassQueueOperator(task_id="class_attr", bash_command="run")
    SparkSubmitLite(task_id="spark_default", app="etl.py")
    SparkSubmitLite(task_id="spark_override", app="etl.py", queue="spark-large")
    LocalBash(task_id="local_default", bash_command="run")
    LocalBash(task_id="local_override", bash_command="run", pool="other_pool")
