"""Routing constants as class attributes, nested classes and Enum members."""

import enum
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator


class QUEUE:
    SNAP = "snap"
    HEAVY = "heavy"

    class GPU:
        SMALL = "gpu-small"
        LARGE = "gpu-large"


class Pool(str, enum.Enum):
    WAREHOUSE = "warehouse"
    API = "partner_api"


class Slots(enum.IntEnum):
    ONE = 1
    FOUR = 4


with DAG("class_constants", start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(task_id="snapshot", bash_command="snap", queue=QUEUE.SNAP)
    BashOperator(task_id="train_small", bash_command="train", queue=QUEUE.GPU.SMALL)
    BashOperator(task_id="train_large", bash_command="train", queue=QUEUE.GPU.LARGE)
    BashOperator(task_id="warehouse", bash_command="load", pool=Pool.WAREHOUSE.value)
    BashOperator(
        task_id="partner", bash_command="sync", pool=Pool.API.value, pool_slots=Slots.FOUR.value
    )
