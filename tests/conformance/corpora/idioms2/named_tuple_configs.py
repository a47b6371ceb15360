"""Task configs held in named tuples: collections.namedtuple and typing.NamedTuple, called,
with defaults, _replace, _asdict, unpacking and indexing."""

from collections import namedtuple
from datetime import datetime
from typing import NamedTuple

from airflow.operators.bash import BashOperator

try:
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG

Source = namedtuple("Source", ["name", "queue", "pool"], defaults=["ingest_pool"])
Export = NamedTuple("Export", [("target", str), ("queue", str)])
SOURCES = [Source("orders", "ingest"), Source("refunds", "ingest_slow", "slow_pool")]
HEAVY = SOURCES[0]._replace(name="orders_full", pool="heavy_pool")


class Check(NamedTuple):
    name: str
    queue: str = "checks"


with DAG("named_tuple_configs", start_date=datetime(2024, 1, 1), schedule=None):
    for source in [*SOURCES, HEAVY]:
        BashOperator(
            task_id=f"load_{source.name}",
            bash_command="load",
            queue=source.queue,
            pool=source.pool,
        )
    for target, queue in (Export("s3", "exports"), Export(target="gcs", queue="exports_gcp")):
        BashOperator(task_id=f"export_{target}", bash_command="export", queue=queue)
    settings = HEAVY._asdict()
    BashOperator(task_id="summary", bash_command="x", queue=settings["queue"], pool=HEAVY[2])
    for check in (Check("rows"), Check("nulls", queue="checks_fast")):
        BashOperator(task_id=f"check_{check.name}", bash_command="check", queue=check.queue)
