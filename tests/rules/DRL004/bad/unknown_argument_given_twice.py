from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

EXTRA = {"queues": "imports"}

# The same unknown keyword by name and through **: DRL004 names it once (DRL005 the clash).
with DAG("reports", schedule=None):
    BashOperator(task_id="build", bash_command="make report", queues="reports", **EXTRA)
