import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# One value that cannot be known, given to several fields of several tasks: one report, at the
# value, names the fields and the tasks ("or": not every task takes both from it).
ROUTE = os.environ["ROUTE"]

with DAG("reports", schedule=None):
    BashOperator(task_id="build", bash_command="make report", queue=ROUTE, pool=ROUTE)
    BashOperator(task_id="render", bash_command="make render", queue=ROUTE, pool=ROUTE)
    BashOperator(task_id="publish", bash_command="make publish", queue=ROUTE)
