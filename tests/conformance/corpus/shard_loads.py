"""Per-shard and per-partner loads: tasks created in loops over literal lists."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, TaskGroup
from common.helpers import shard_command
from common.routing import PARTNERS, SHARDS

REGIONS = ["eu", "us", "apac"]

with DAG(
    dag_id="shard_loads",
    schedule="@hourly",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args={"queue": "loads", "pool": "loads_pool"},
):
    start = EmptyOperator(task_id="start")

    for q in ["etl", "io-heavy"]:
        start >> BashOperator(task_id=f"run_{q}", bash_command=f"run --queue {q}", queue=q)

    for region in REGIONS:
        BashOperator(
            task_id=f"load_{region}",
            bash_command=f"load {region}",
            queue=f"loads-{region}",
        )

    for shard in SHARDS:
        BashOperator(task_id="load_" + shard, bash_command=shard_command(shard))

    with TaskGroup("partners", default_args={"queue": "partners"}):
        for partner, pool, slots in PARTNERS:
            BashOperator(
                task_id=f"sync_{partner}",
                bash_command=f"sync {partner}",
                pool=pool,
                pool_slots=slots,
            )

    for name, queue in (("compact", "maintenance"), ("vacuum", "maintenance-io")):
        EmptyOperator(task_id=name, queue=queue)
