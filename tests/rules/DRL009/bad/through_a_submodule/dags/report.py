from airflow import DAG
from airflow.operators.empty import EmptyOperator

# 'helpers' is a submodule: importing it comes back here, where the next line asks it for OWNER.
from pkg import helpers
from pkg.helpers import OWNER

SCHEDULE = "@daily"

with DAG("report", schedule=None, tags=[OWNER, helpers.OWNER]):
    EmptyOperator(task_id="build")
