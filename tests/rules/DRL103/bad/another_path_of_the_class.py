from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

EDGE = "airflow.providers.edge3.executors.edge_executor.EdgeExecutor"

# The same class under another import path than the configured one does not match.
with DAG("edge_jobs", schedule=None):
    BashOperator(task_id="measure", bash_command="measure", executor=EDGE)
    BashOperator(task_id="by_class_name", bash_command="measure", executor="EdgeExecutor")
