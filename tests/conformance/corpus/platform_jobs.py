"""Platform jobs spread over several executors, pools and slot counts."""

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, TaskGroup, dag, task
from common.routing import K8S_EXECUTOR, LOCAL_EXECUTOR

with DAG(
    dag_id="platform_jobs",
    schedule=None,
    start_date=datetime(2024, 1, 1),
    default_args={"executor": K8S_EXECUTOR, "pool": "platform", "pool_slots": 2},
):
    on_k8s = BashOperator(task_id="on_k8s", bash_command="make k8s")
    on_local = BashOperator(task_id="on_local", bash_command="make local", executor=LOCAL_EXECUTOR)
    on_celery = BashOperator(
        task_id="on_celery",
        bash_command="make celery",
        executor="CeleryExecutor",
        queue="platform",
        pool_slots=1,
    )
    default_executor = EmptyOperator(task_id="default_executor", executor=None)

    with TaskGroup("local_group", default_args={"executor": "LocalExecutor", "pool": "local"}):
        BashOperator(task_id="in_group", bash_command="make group")
        BashOperator(task_id="heavy_in_group", bash_command="make heavy", pool_slots=8)

    @task(executor="CeleryExecutor", queue="platform-taskflow")
    def taskflow_celery():
        return 1

    @task
    def taskflow_default():
        return 2

    taskflow_celery()
    taskflow_default()
    taskflow_default.override(executor=LOCAL_EXECUTOR, pool="override_pool", pool_slots=5)()


@dag(
    schedule=None,
    start_date=datetime(2024, 1, 1),
    default_args={"pool": "maintenance", "pool_slots": 3},
)
def platform_maintenance():
    @task(pool_slots=1)
    def rotate_logs():
        return True

    @task(executor=K8S_EXECUTOR)
    def rebuild_indexes():
        return True

    rotate_logs()
    rebuild_indexes()
    EmptyOperator(task_id="noop", pool="default_pool")


platform_maintenance()
