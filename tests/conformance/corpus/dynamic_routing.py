"""Routing decided while the file is parsed (environment, function results, mutation).

A static reader cannot know these values; the linter must say so instead of guessing.
"""

import os
from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, task
from common.helpers import pick_queue

QUARTERLY_ARGS = {"owner": "finance", "queue": "reports"}
QUARTERLY_ARGS.update({"queue": "reports-quarterly"})

with DAG(
    dag_id="dynamic_routing",
    schedule=None,
    start_date=datetime(2024, 1, 1),
    default_args={"queue": os.environ.get("DAGROUTE_DEMO_TEAM_QUEUE", "team-default")},
):
    inherits_env = EmptyOperator(task_id="inherits_env")
    env_queue = BashOperator(
        task_id="env_queue",
        bash_command="make a",
        queue=os.getenv("DAGROUTE_DEMO_ETL_QUEUE", "etl"),
    )
    env_pool = BashOperator(
        task_id="env_pool",
        bash_command="make b",
        queue="etl",
        pool=os.environ.get("DAGROUTE_DEMO_POOL", "default_pool"),
        pool_slots=int(os.getenv("DAGROUTE_DEMO_SLOTS", "2")),
    )
    called = BashOperator(task_id="called", bash_command="make c", queue=pick_queue("large"))
    static_neighbour = BashOperator(task_id="static_neighbour", bash_command="make d", queue="etl")

    @task(executor=os.getenv("DAGROUTE_DEMO_EXECUTOR", "KubernetesExecutor"))
    def env_executor():
        return 1

    env_executor()


with DAG(
    dag_id="dynamic_mutated_defaults",
    schedule=None,
    start_date=datetime(2024, 1, 1),
    default_args=QUARTERLY_ARGS,
):
    # The dict was changed after it was defined: reading only its literal would be wrong.
    BashOperator(task_id="quarterly_close", bash_command="make close")
