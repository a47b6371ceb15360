"""Other spellings of DAG, task and chain: common.compat.sdk, airflow.models, @dag.task."""

from datetime import datetime

from airflow import models
from airflow.operators.bash import BashOperator
from airflow.providers.common.compat.sdk import DAG, chain, task

with DAG("reexports_compat", start_date=datetime(2024, 1, 1), schedule=None):

    @task(queue="compat")
    def compat_task():
        return 1

    first = BashOperator(task_id="first", bash_command="run", queue="compat-bash")
    chain(first, compat_task())

with models.DAG("reexports_models", start_date=datetime(2024, 1, 1), schedule=None) as dag:

    @dag.task(queue="dag-task", pool="dag_task_pool")
    def on_dag_object():
        return 1

    on_dag_object()
    BashOperator(task_id="models_bash", bash_command="run", pool_slots=2)
