from airflow import DAG
from airflow.operators.empty import EmptyOperator

# A DAG id is shown whole up to 60 characters and a task's label up to 120; longer, they are cut.
with DAG("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", schedule=None):
    EmptyOperator(task_id="start")

with DAG("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb!", schedule=None):
    EmptyOperator(task_id="start")

with DAG("reports", schedule=None):
    EmptyOperator(task_id="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx!")
    EmptyOperator(task_id="yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy!")
