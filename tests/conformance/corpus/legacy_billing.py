"""Billing pipeline in the pre-context-manager style: `dag = DAG(...)` and `dag=dag`."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG

DEFAULT_ARGS = {
    "owner": "billing",
    "queue": "billing",
    "pool": "billing_pool",
    "pool_slots": 2,
}

dag = DAG(
    "legacy_billing",
    default_args=DEFAULT_ARGS,
    schedule="0 4 * * *",
    start_date=datetime(2023, 6, 1),
    catchup=False,
)

prepare = BashOperator(task_id="prepare", bash_command="make prepare", dag=dag)

invoice = BashOperator(
    task_id="invoice",
    bash_command="make invoice",
    default_args={"queue": "billing-priority"},
    pool_slots=1,
    dag=dag,
)


def _archive():
    print("archived")


archive = PythonOperator(
    task_id="archive",
    python_callable=_archive,
    dag=dag,
    pool="archive_pool",
)

# Built outside any DAG and attached afterwards: the DAG's default_args never reach it.
audit = BashOperator(task_id="audit", bash_command="make audit")
dag.add_task(audit)

prepare >> invoice >> [archive, audit]


reconcile_dag = DAG(
    dag_id="legacy_billing_reconcile",
    default_args={"queue": "reconcile"},
    schedule=None,
    start_date=datetime(2023, 6, 1),
)

reconcile = BashOperator(task_id="reconcile", bash_command="make reconcile", dag=reconcile_dag)
reconcile_report = BashOperator(
    task_id="reconcile_report",
    bash_command="make report",
    queue="reports",
    dag=reconcile_dag,
)
reconcile >> reconcile_report
