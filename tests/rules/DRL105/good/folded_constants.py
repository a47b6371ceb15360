from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

TEAM = "lab"
QUEUES = {"small": f"{TEAM}_small", "large": TEAM + "_large"}
SLOTS = 2 * 2

with DAG("nightly", schedule=None):
    for size in ("small", "large"):
        BashOperator(task_id=f"export_{size}", bash_command="x", queue=QUEUES[size], pool_slots=SLOTS)
