from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.empty import EmptyOperator


class TeamDAG(DAG):
    def __init__(self, dag_id, team, **kwargs):
        super().__init__(dag_id, tags=[team], **kwargs)


with TeamDAG("reports", team="finance", schedule=None, start_date=datetime(2024, 1, 1)):
    EmptyOperator(task_id="build")
