"""A dict imported from common/ and changed in place here before the DAG uses it."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from common.mutable_args import SHARED

SHARED["queue"] = "finance-close"
SHARED["pool"] = "finance_pool"

with DAG(
    "imported_dict_mutation", start_date=datetime(2024, 1, 1), schedule=None, default_args=SHARED
):
    BashOperator(task_id="close_books", bash_command="close")
