"""A DAG factory called in a loop, each DAG registered with globals()[name] = make_dag(name)."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

SOURCES = {"postgres": "db-io", "mysql": "db-io", "sftp": "file-io"}


def make_dag(name, queue):
    with DAG(f"ingest_{name}", start_date=datetime(2024, 1, 1), schedule=None) as d:
        fetch = BashOperator(task_id="fetch", bash_command=f"fetch {name}", queue=queue)
        store = BashOperator(task_id="store", bash_command="store", pool="landing")
        fetch >> store
    return d


for name, queue in SOURCES.items():
    globals()[f"ingest_{name}"] = make_dag(name, queue)
