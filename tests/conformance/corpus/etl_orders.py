"""Nightly orders ETL: `with DAG(...)` and literal default_args."""

from datetime import datetime, timedelta

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG


def _validate_orders(**context):
    print("validating", context["ds"])


with DAG(
    dag_id="etl_orders",
    schedule="@daily",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args={
        "owner": "orders",
        "queue": "etl",
        "pool": "warehouse",
        "retries": 2,
        "retry_delay": timedelta(minutes=5),
    },
    tags=["orders", "etl"],
) as dag:
    start = EmptyOperator(task_id="start")
    extract = BashOperator(
        task_id="extract_orders",
        bash_command="python -m jobs.extract --date {{ ds }}",
    )
    validate = PythonOperator(
        task_id="validate_orders",
        python_callable=_validate_orders,
        queue="io-heavy",
        pool_slots=3,
    )
    load = BashOperator(
        task_id="load_orders",
        bash_command="python -m jobs.load --date {{ ds }}",
        pool="default_pool",
    )
    # Explicit None: Airflow keeps queue=None (default_args do not apply) and pool -> default_pool.
    notify = BashOperator(
        task_id="notify",
        bash_command="echo orders loaded",
        queue=None,
        pool=None,
    )
    finish = EmptyOperator(task_id="finish", dag=dag)

    start >> extract >> validate >> load >> notify >> finish
