"""Warehouse refresh: TaskGroups with default_args, nesting, `task_group=`, no prefix."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, TaskGroup

with DAG(
    dag_id="warehouse_refresh",
    schedule="30 2 * * *",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args={"queue": "etl", "pool": "warehouse", "pool_slots": 1},
) as dag:
    begin = EmptyOperator(task_id="begin")

    with TaskGroup("staging", default_args={"queue": "staging", "pool": "staging_pool"}) as staging:
        stage_customers = BashOperator(task_id="customers", bash_command="make stage-customers")
        stage_orders = BashOperator(
            task_id="orders", bash_command="make stage-orders", pool="orders_pool"
        )

        # Nested: the inner group's keys win one by one; the rest come from the outer group.
        with TaskGroup("heavy", default_args={"queue": "io-heavy", "pool_slots": 4}) as heavy:
            stage_events = BashOperator(task_id="events", bash_command="make stage-events")
            with TaskGroup("deepest", default_args={"pool": "deep_pool"}):
                stage_clicks = BashOperator(task_id="clicks", bash_command="make stage-clicks")
            stage_sessions = BashOperator(
                task_id="sessions",
                bash_command="make stage-sessions",
                default_args={"pool_slots": 2},
            )

        with TaskGroup(group_id="light"):
            stage_currencies = EmptyOperator(task_id="currencies")

    with TaskGroup("marts", prefix_group_id=False, default_args={"queue": "marts"}) as marts:
        build_sales = BashOperator(task_id="build_sales", bash_command="make sales")
        with TaskGroup("finance_marts", default_args={"pool": "finance_pool"}):
            build_ledger = BashOperator(task_id="build_ledger", bash_command="make ledger")

    # Created after the group block but handed the group: prefix and group default_args apply.
    stage_refunds = BashOperator(
        task_id="refunds", bash_command="make stage-refunds", task_group=staging
    )
    stage_spikes = EmptyOperator(task_id="spikes", task_group=heavy)
    build_margin = BashOperator(
        task_id="build_margin", bash_command="make margin", task_group=marts
    )

    end = EmptyOperator(task_id="end", queue="etl-finish")

    begin >> staging >> marts >> end
