"""Routing chosen by flags computed from Airflow's version, in the file and in common/ modules
written like the system tests' and the providers' version_compat: the queue, the pool and which
tasks exist differ between the branches, and only the branch of the deployment's version runs."""

from datetime import datetime

import airflow
from airflow.operators.bash import BashOperator
from common import provider_version_compat as compat
from common.system_test_version_compat import AIRFLOW_V_2_10_PLUS, AIRFLOW_V_3_1_PLUS
from packaging.version import Version

if compat.AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import DAG, TaskGroup, task
else:
    from airflow.decorators import task
    from airflow.models.dag import DAG
    from airflow.utils.task_group import TaskGroup

QUEUE = "routing_v3" if compat.AIRFLOW_MAJOR >= 3 else "routing_v2"
if compat.AIRFLOW_V_3_3_PLUS:
    POOL = "pool_3_3"
elif AIRFLOW_V_2_10_PLUS:
    POOL = "pool_2_10"
else:
    POOL = "pool_old"
LEGACY = airflow.__version__.startswith("2.")

with DAG(
    "version_routing",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args={"queue": QUEUE},
):
    BashOperator(task_id="extract", bash_command="echo extract", pool=POOL)
    if AIRFLOW_V_3_1_PLUS:
        BashOperator(task_id="assets_sync", bash_command="echo sync", queue="routing_assets")
    else:
        BashOperator(task_id="datasets_sync", bash_command="echo sync", pool_slots=2)
    with TaskGroup("load", default_args={"pool": "legacy_pool" if LEGACY else "load_pool"}):

        @task(queue="taskflow_v3" if Version(airflow.__version__).release >= (3,) else "tf_v2")
        def write():
            return 1

        write()
        if not LEGACY:
            BashOperator(task_id="verify", bash_command="echo verify")
