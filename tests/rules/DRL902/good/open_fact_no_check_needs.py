# Airflow 3 bundles the standard provider, and nothing here needs a package or defers.
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("nightly", schedule=None):
    BashOperator(task_id="run", bash_command="true")
