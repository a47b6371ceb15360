"""Analytics reports: routing constants imported from the shared package in several ways."""

from datetime import datetime

import common.routing
import common.routing as r
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task
from common import ETL_QUEUE
from common.routing import REPORTS_QUEUE
from common.routing import WAREHOUSE_POOL as DW_POOL
from common.teams import ANALYTICS_ARGS
from common.teams.analytics import ANALYTICS_QUEUE

with DAG(
    dag_id="analytics_reports",
    schedule="@daily",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args=ANALYTICS_ARGS,
):
    inherited = BashOperator(task_id="inherited", bash_command="make inherited")
    from_import = BashOperator(
        task_id="from_import", bash_command="make a", queue=REPORTS_QUEUE, pool=DW_POOL
    )
    module_alias = BashOperator(
        task_id="module_alias", bash_command="make b", queue=r.IO_QUEUE, pool=r.PARTNER_API_POOL
    )
    dotted = BashOperator(
        task_id="dotted",
        bash_command="make c",
        queue=common.routing.GPU_QUEUE,
        pool_slots=common.routing.WAREHOUSE_SLOTS,
    )
    reexported = BashOperator(task_id="reexported", bash_command="make d", queue=ETL_QUEUE)
    computed_elsewhere = BashOperator(
        task_id="computed_elsewhere", bash_command="make e", queue=ANALYTICS_QUEUE + "-late"
    )

    @task(queue=r.REPORTS_QUEUE, executor=r.K8S_EXECUTOR)
    def render_dashboard():
        return "ok"

    inherited >> [from_import, module_alias, dotted, reexported, computed_elsewhere]
    render_dashboard()
