"""Data quality checks: a @dag whose checks are added by a helper, severity picks the queue."""

from datetime import datetime

from airflow.decorators import dag
from airflow.operators.bash import BashOperator

CHECKS = {
    "orders": ["not_null_id", "unique_id", "fresh", "row_count", "fk_customer", "amount_positive"],
    "customers": ["not_null_id", "unique_id", "email_format", "fresh", "country_valid"],
    "payments": ["not_null_id", "unique_id", "fk_order", "currency_valid", "fresh", "reconciled"],
    "shipments": ["not_null_id", "fk_order", "carrier_valid", "fresh", "sla_window"],
    "products": ["not_null_id", "unique_sku", "price_positive", "category_valid"],
    "sessions": ["not_null_id", "fresh", "duration_positive", "device_valid"],
}
BLOCKING = {"unique_id", "fk_order", "reconciled"}


def add_checks(table, checks):
    for check in checks:
        BashOperator(
            task_id=f"{table}__{check}",
            bash_command=f"dq {table} {check}",
            queue="dq-blocking" if check in BLOCKING else "dq",
            pool_slots=2 if check == "reconciled" else 1,
        )


@dag(dag_id="quality_checks", start_date=datetime(2024, 1, 1), schedule="@hourly", catchup=False)
def quality_checks():
    for table, checks in CHECKS.items():
        add_checks(table, checks)


quality_checks()
