"""default_args dicts changed after they are built, directly or through an alias."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

BASE = {"owner": "ops", "queue": "base", "pool": "base_pool"}

args = BASE
args["queue"] = "reports"
args.update(pool="reports_pool")

SETDEF = {"owner": "ops"}
SETDEF.setdefault("queue", "setdefault-q")
SETDEF.setdefault("owner", "ignored")

DELETED = {"queue": "deleted-q", "pool": "kept_pool"}
del DELETED["queue"]

POPPED = {"queue": "popped-q", "pool_slots": 3}
POPPED.pop("queue")

ORED = {"queue": "or-before"}
ORED |= {"queue": "or-after", "pool": "or_pool"}

for dag_id, defaults in (
    ("mutated_alias", BASE),
    ("mutated_setdefault", SETDEF),
    ("mutated_del", DELETED),
    ("mutated_pop", POPPED),
    ("mutated_or", ORED),
):
    with DAG(dag_id, start_date=datetime(2024, 1, 1), schedule=None, default_args=defaults):
        BashOperator(task_id=f"{dag_id}_task", bash_command="run")
