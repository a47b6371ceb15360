"""Classic-style maintenance DAG: one DAG object, dag=dag on every task, default_args built once."""

from datetime import datetime, timedelta

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator

default_args = {
    "owner": "sre",
    "retries": 1,
    "retry_delay": timedelta(minutes=10),
    "queue": "maintenance",
    "pool": "maintenance",
}

dag = DAG(
    "maintenance",
    default_args=default_args,
    start_date=datetime(2024, 1, 1),
    schedule="0 1 * * *",
    catchup=False,
)

start = EmptyOperator(task_id="start", dag=dag)
end = EmptyOperator(task_id="end", dag=dag, on_success_callback=lambda context: None)
CLEANUPS = ["logs", "tmp", "xcom", "dag_runs", "task_instances", "rendered_fields", "jobs"]
for name in CLEANUPS:
    clean = BashOperator(task_id=f"clean_{name}", bash_command=f"cleanup {name}", dag=dag)
    start >> clean >> end
for db in ("metadata", "warehouse", "reporting"):
    vacuum = BashOperator(
        task_id=f"vacuum_{db}", bash_command=f"vacuum {db}", pool_slots=2, dag=dag
    )
    start >> vacuum >> end
