import pandas

from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG


def summarise() -> int:
    return len(pandas.DataFrame())


with DAG("summary", schedule=None):
    PythonOperator(task_id="summarise", python_callable=summarise)
