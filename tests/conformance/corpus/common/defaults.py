"""Default task arguments shared by the data-platform pipelines."""

from datetime import timedelta

from common.routing import ETL_QUEUE, WAREHOUSE_POOL, WAREHOUSE_SLOTS

BASE_ARGS = {
    "owner": "data-platform",
    "retries": 2,
    "retry_delay": timedelta(minutes=5),
    "queue": ETL_QUEUE,
}

WAREHOUSE_ARGS = {
    **BASE_ARGS,
    "pool": WAREHOUSE_POOL,
    "pool_slots": WAREHOUSE_SLOTS,
}
