"""Provider system-test style DAGs written against airflow.providers.common.compat.sdk."""

import os
from datetime import datetime

from airflow.operators.bash import BashOperator
from airflow.providers.common.compat.sdk import DAG, TaskGroup, chain, task

DAG_ID = os.path.splitext(os.path.basename(__file__))[0]
ENV_ID = "ci"
STEPS = ["create_bucket", "upload", "copy", "list", "download", "delete_objects", "delete_bucket"]

with DAG(DAG_ID, start_date=datetime(2024, 1, 1), schedule="@once", catchup=False) as dag:

    @task(queue="system-tests")
    def setup_env():
        return ENV_ID

    with TaskGroup("storage") as storage:
        steps = [
            BashOperator(task_id=step, bash_command=f"storage {step}", pool="cloud_api")
            for step in STEPS
        ]
        chain(*steps)

    @task(queue="system-tests")
    def teardown_env():
        return ENV_ID

    chain(setup_env(), storage, teardown_env())
