"""Operator factories and subclasses the platform's DAGs build their tasks with."""

from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator

from common.platform import POOLS, QUEUES


def dbt_op(model, layer, dag=None, **kwargs):
    kwargs.setdefault("queue", QUEUES.TRANSFORM)
    return BashOperator(
        task_id=f"dbt_{layer}_{model}",
        bash_command=f"dbt run --select {layer}.{model}",
        dag=dag,
        **kwargs,
    )


def sftp_pull(partner, slots=1):
    return BashOperator(
        task_id=f"pull_{partner}",
        bash_command=f"sftp-pull {partner}",
        queue=QUEUES.INGEST,
        pool=POOLS.SFTP,
        pool_slots=slots,
    )


def marker(name):
    return EmptyOperator(task_id=name)


class WarehouseLoad(BashOperator):
    """Every warehouse load takes a warehouse slot unless told otherwise."""

    def __init__(self, *, table, **kwargs):
        kwargs.setdefault("pool", POOLS.WAREHOUSE)
        kwargs.setdefault("queue", QUEUES.INGEST)
        super().__init__(bash_command=f"load {table}", **kwargs)


class PodJob(BashOperator):
    """Heavy jobs run in their own pod."""

    def __init__(self, *, image, executor="KubernetesExecutor", **kwargs):
        super().__init__(bash_command=f"run-image {image}", executor=executor, **kwargs)
