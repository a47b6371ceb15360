"""Values and operators chosen in branches decided when the file runs: each candidate is kept."""

import os
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

# try/except ImportError where both paths are possible: the client may or may not be installed
# where the file is parsed (it is not, here).
try:
    import snowflake_demo_client  # noqa: F401

    WAREHOUSE_QUEUE = "snowflake"
except ImportError:
    WAREHOUSE_QUEUE = "warehouse"

# if/elif/else assignments decided by the environment.
if os.environ.get("DEPLOY_ENV") == "prod":
    POOL, SLOTS = "prod_pool", 4
elif os.environ.get("DEPLOY_ENV") == "staging":
    POOL, SLOTS = "staging_pool", 2
else:
    POOL, SLOTS = "dev_pool", 1

PRIORITY = "priority" if os.environ.get("PRIORITY_LANE") else ""


def executor_for(kind):
    """A helper whose result depends on where the file runs."""
    if os.environ.get("ON_K8S"):
        return "KubernetesExecutor"
    return "CeleryExecutor"


with DAG("candidate_branches", start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(
        task_id="load", bash_command="load", queue=WAREHOUSE_QUEUE, pool=POOL, pool_slots=SLOTS
    )
    BashOperator(
        task_id="publish",
        bash_command="publish",
        queue=f"{WAREHOUSE_QUEUE}-publish",
        executor=executor_for("publish"),
    )
    BashOperator(task_id="rank", bash_command="rank", queue=PRIORITY or "default")
    # The same task built in either branch, differently routed.
    if os.environ.get("FAST_LANE"):
        BashOperator(task_id="notify", bash_command="notify", queue="fast")
    else:
        BashOperator(task_id="notify", bash_command="notify", queue="slow", pool_slots=2)

with DAG(
    "candidate_default_args",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args={"queue": "nightly"} if os.environ.get("NIGHTLY") else {"pool": POOL},
):
    # default_args is one of two dicts: one sets the queue, the other leaves it to the default.
    BashOperator(task_id="refresh", bash_command="refresh")
    BashOperator(task_id="pinned", bash_command="pinned", queue="pinned")
