from airflow import DAG
from airflow.operators.empty import EmptyOperator

from customers import CUSTOMERS_TABLE

ORDERS_TABLE = "orders"

with DAG("orders", schedule=None):
    EmptyOperator(task_id=f"load_{CUSTOMERS_TABLE}")
