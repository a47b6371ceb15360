from airflow.operators.bash import BashOperator
from airflow import DAG

COMMON = {"pool": "reports"}

# Keywords from default_args, and attributes set after the call, are not the call's own: they
# never clash with it (and come first among the task's settings).
with DAG("reports", schedule=None, default_args={"retries": 2, "pool": "shared"}):
    build = BashOperator(task_id="build", bash_command="make report", pool="reports", **COMMON)
    build.retries = 3
