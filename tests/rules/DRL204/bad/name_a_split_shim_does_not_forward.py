# The shim's names moved to two modules: the message names neither.
from airflow.operators.python import NoSuchOperator
from airflow.sdk import DAG

with DAG("split", schedule=None):
    pass
