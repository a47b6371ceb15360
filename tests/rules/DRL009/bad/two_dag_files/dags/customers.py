from airflow import DAG
from airflow.operators.empty import EmptyOperator

from orders import ORDERS_TABLE

CUSTOMERS_TABLE = "customers"

with DAG("customers", schedule=None):
    EmptyOperator(task_id=f"load_{ORDERS_TABLE}")
