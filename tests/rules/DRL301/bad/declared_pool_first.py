import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The declared candidate comes first: the undeclared one after it is still reported.
POOL = "reports" if os.environ.get("REPORTS") else "big"

with DAG("lab_report", schedule=None):
    BashOperator(task_id="render", bash_command="make report", pool=POOL)
