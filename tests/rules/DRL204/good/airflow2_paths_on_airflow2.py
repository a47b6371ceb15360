from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.operators.dummy import DummyOperator

with DAG("legacy", schedule=None):
    DummyOperator(task_id="start") >> BashOperator(task_id="shell", bash_command="x")
