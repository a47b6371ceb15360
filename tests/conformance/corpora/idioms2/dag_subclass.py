"""A DAG subclass that adds its standard tasks in __init__."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator


class MonitoredDAG(DAG):
    """Every monitored DAG ends with a heartbeat task on the monitoring queue."""

    def __init__(self, dag_id, **kwargs):
        super().__init__(dag_id, **kwargs)
        BashOperator(task_id="heartbeat", bash_command="beat", queue="monitoring", dag=self)


with MonitoredDAG("dag_subclass", start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(task_id="work", bash_command="work", queue="workers")
