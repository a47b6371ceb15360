"""Regional queues whose names are built from constants."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.routing import QUEUE_TEMPLATE, REGION, SIZE_SUFFIX, TEAM

ENV = "prod"
BASE_POOL = "warehouse"
SLOTS = 2

with DAG(
    dag_id="queue_naming",
    schedule=None,
    start_date=datetime(2024, 1, 1),
    default_args={"queue": f"{TEAM}-{REGION}", "pool": BASE_POOL + "_" + ENV},
):
    BashOperator(task_id="inherits_fstring", bash_command="make a")
    BashOperator(task_id="fstring", bash_command="make b", queue=f"{TEAM}-{ENV}")
    BashOperator(task_id="fstring_spec", bash_command="make c", queue=f"shard-{SLOTS:02d}")
    BashOperator(task_id="concat", bash_command="make d", queue=TEAM + SIZE_SUFFIX)
    BashOperator(task_id="concat_literal", bash_command="make e", queue="etl" + "-" + REGION)
    BashOperator(
        task_id="percent",
        bash_command="make f",
        queue="%s-%s" % (TEAM, REGION),  # noqa: UP031  (the style some teams still use)
    )
    BashOperator(task_id="percent_single", bash_command="make g", queue="%s-batch" % ENV)  # noqa: UP031
    BashOperator(
        task_id="str_format",
        bash_command="make h",
        queue=QUEUE_TEMPLATE.format(team=TEAM, region=REGION),
    )
    BashOperator(
        task_id="str_format_positional",
        bash_command="make i",
        queue="{}-{}".format(ENV, REGION),  # noqa: UP032
        pool="{}_{}".format(BASE_POOL, "eu"),
    )
