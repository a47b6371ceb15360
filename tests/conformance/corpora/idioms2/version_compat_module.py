"""The DAG class, the TaskGroup class and the version flag from the repository's compatibility
module (as the provider system tests import them), and ``@task`` chosen by that flag here."""

from datetime import datetime

from airflow.operators.bash import BashOperator
from common.version_compat import AIRFLOW_V_3_0_PLUS, DAG, TaskGroup

if AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import task
else:
    from airflow.decorators import task

with DAG("version_compat_module", start_date=datetime(2024, 1, 1), schedule=None) as dag:
    start = BashOperator(task_id="start", bash_command="echo start", queue="compat_start")

    @task(queue="compat_tasks")
    def transform(value: int) -> int:
        return value + 1

    with TaskGroup("publish", default_args={"pool": "publish_pool"}):
        BashOperator(task_id="publish", bash_command="echo publish")
        transform(1)

    start >> transform(2)
