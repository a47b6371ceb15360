"""Partner exports: classic dynamic task mapping with `Op.partial(...).expand(...)`."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG, TaskGroup
from common.routing import IO_QUEUE


def _export(partner: str) -> None:
    print("export", partner)


with DAG(
    dag_id="partner_exports",
    schedule="@daily",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    default_args={"queue": "exports"},
):
    # queue from partial() wins over default_args.
    BashOperator.partial(task_id="export_files", queue=IO_QUEUE).expand(
        bash_command=["export acme", "export globex", "export initech"]
    )
    # Nothing in partial(): default_args apply.
    BashOperator.partial(task_id="checksum_files").expand(
        bash_command=["sha256sum a", "sha256sum b"]
    )
    # pool/pool_slots in partial().
    PythonOperator.partial(
        task_id="push_to_partner", python_callable=_export, pool="partner_api", pool_slots=2
    ).expand(op_kwargs=[{"partner": "acme"}, {"partner": "globex"}])
    # expand(pool=...) is accepted but ignored for routing: the mapped task keeps default_pool.
    BashOperator.partial(task_id="per_pool_cleanup").expand(
        bash_command=["cleanup a", "cleanup b"], pool=["pool_a", "pool_b"]
    )
    BashOperator.partial(task_id="notify_partners", queue="notify").expand_kwargs(
        [{"bash_command": "notify acme"}, {"bash_command": "notify globex"}]
    )

    with TaskGroup("archive", default_args={"queue": "archive", "pool_slots": 2}):
        BashOperator.partial(task_id="compress").expand(bash_command=["gzip a", "gzip b"])
        BashOperator.partial(task_id="upload", pool_slots=1, executor="KubernetesExecutor").expand(
            bash_command=["upload a", "upload b"]
        )
