from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

# The executor is checked when the DAG is parsed, even for a task never sent to a worker.
with DAG("train", schedule=None):
    EmptyOperator(task_id="done", executor="EcsExecutor")
