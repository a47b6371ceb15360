"""DAG ids derived from the file's own name."""

import os
from datetime import datetime
from pathlib import Path

from airflow import DAG
from airflow.operators.bash import BashOperator

DAG_ID = os.path.splitext(os.path.basename(__file__))[0]

with DAG(DAG_ID, start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(task_id="run", bash_command="run", queue=f"{DAG_ID}-queue")

with DAG(f"{Path(__file__).stem}_v2", start_date=datetime(2024, 1, 1), schedule=None):
    BashOperator(task_id="run_v2", bash_command="run", queue="file-named")
