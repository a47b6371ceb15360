"""A value that is one of several known literals, decided when the file runs."""

import os
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

has_nfs = os.path.isdir("/mnt/shared-nfs")
q = "nfs" if has_nfs else "manager"
POOL = "big" if os.environ.get("DAGROUTE_DEMO_BIG") else "small"

with DAG("candidate_literals", start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(task_id="copy", bash_command="copy", queue=q)
    BashOperator(task_id="sized", bash_command="run", pool=POOL)
