"""try/except where the try body succeeds when Airflow parses the file."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

try:
    from common.routing_v2 import QUEUE
except ImportError:
    QUEUE = "platform-v1"

try:
    HEAVY_POOL = {"heavy": "heavy_pool"}["heavy"]
except KeyError:
    HEAVY_POOL = "default_pool"

try:
    from common.routing_v2 import POOLS

    SLOTS = len(POOLS) + 1
except Exception:
    SLOTS = 5

with DAG("try_except_import", start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(task_id="platform", bash_command="run", queue=QUEUE)
    BashOperator(task_id="heavy", bash_command="run", pool=HEAVY_POOL, pool_slots=SLOTS)
