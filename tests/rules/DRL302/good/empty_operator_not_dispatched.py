from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

# Never queued, so it never waits for slots.
with DAG("nightly", schedule=None):
    EmptyOperator(task_id="done", pool="reports", pool_slots=8)
