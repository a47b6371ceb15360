"""The dbt project: one task per model, grouped by layer, built by the dbt_op factory."""

from datetime import datetime

from airflow import DAG
from airflow.utils.task_group import TaskGroup
from common.operators import dbt_op, marker
from common.platform import POOLS, team_args

LAYERS = {
    "staging": [
        "orders",
        "customers",
        "payments",
        "shipments",
        "products",
        "sessions",
        "clicks",
        "invoices",
        "refunds",
        "reviews",
    ],
    "intermediate": [
        "order_totals",
        "customer_ltv",
        "payment_status",
        "shipping_sla",
        "product_margin",
        "session_funnel",
        "attribution",
        "invoice_aging",
    ],
    "marts": [
        "finance_daily",
        "growth_weekly",
        "ops_sla",
        "exec_summary",
        "partner_scores",
        "churn",
        "cohorts",
    ],
}
HEAVY = {"customer_ltv", "attribution", "cohorts"}

with DAG(
    "dbt_models",
    start_date=datetime(2024, 1, 1),
    schedule="0 3 * * *",
    catchup=False,
    default_args=team_args("analytics-engineering", pool=POOLS.WAREHOUSE),
) as dag:
    start = marker("start")
    previous = start
    for layer, models in LAYERS.items():
        with TaskGroup(layer) as group:
            for model in models:
                if model in HEAVY:
                    dbt_op(model, layer, pool_slots=3, queue="transform-heavy")
                else:
                    dbt_op(model, layer)
        previous >> group
        previous = group
    previous >> marker("done")
