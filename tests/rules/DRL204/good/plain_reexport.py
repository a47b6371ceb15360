from airflow import DAG
from airflow.models import DAG as ModelsDAG
from airflow.providers.standard.operators.bash import BashOperator

# Airflow 3.3 re-exports DAG from airflow and airflow.models lazily, without a warning.
with DAG("legacy", schedule=None):
    BashOperator(task_id="shell", bash_command="x")

assert ModelsDAG is DAG
