# On Airflow 2.10 these still import, but only with a deprecation warning.
from airflow import DAG
from airflow.operators.bash_operator import BashOperator
from airflow.operators.dummy import DummyOperator

with DAG("legacy", schedule=None):
    DummyOperator(task_id="start") >> BashOperator(task_id="shell", bash_command="x")
