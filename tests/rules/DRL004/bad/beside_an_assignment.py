from airflow import DAG
from airflow.operators.bash import BashOperator

# An attribute set after the call is not one of its keywords; the call's own are still judged.
with DAG("reports", schedule=None):
    build = BashOperator(task_id="build", bash_command="make report", queues="reports")
    build.retries = 3
