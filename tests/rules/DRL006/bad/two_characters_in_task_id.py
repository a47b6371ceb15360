from airflow import DAG
from airflow.operators.empty import EmptyOperator

# Each character Airflow refuses is named once, in order.
with DAG("reports", schedule=None):
    EmptyOperator(task_id="load orders/eu")
