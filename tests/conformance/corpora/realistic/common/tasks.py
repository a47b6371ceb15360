"""TaskFlow tasks shared by the reporting DAGs."""

from airflow.decorators import task

from common.platform import POOLS, QUEUES


@task(queue=QUEUES.TRANSFORM)
def compute(metric: str) -> str:
    return metric


@task(queue=QUEUES.EXPORT, pool=POOLS.PARTNER_API)
def publish(payload: str) -> None:
    print(payload)


@task
def shard_ids(count: int) -> list:
    return list(range(count))


@task(pool=POOLS.WAREHOUSE, pool_slots=2)
def refresh_shard(shard: int) -> int:
    return shard
