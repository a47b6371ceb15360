"""Local dataclasses and NamedTuples called inside a DAG: records, not operators."""

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from airflow import DAG
from airflow.operators.bash import BashOperator


@dataclass
class Table:
    task_id: str
    queue: str = "tables"


class Feed(NamedTuple):
    task_id: str
    pool: str


with DAG("local_dataclass", start_date=datetime(2024, 1, 1), schedule=None):
    for table in (Table("orders"), Table("refunds", queue="refunds")):
        BashOperator(task_id=f"load_{table.task_id}", bash_command="load", queue=table.queue)
    feed = Feed(task_id="feed_record", pool="feeds")
    BashOperator(task_id="feed", bash_command="pull", pool=feed.pool)
