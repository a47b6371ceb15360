# A compatibility shim: the Airflow 2 path is only the fallback, so it cannot fail the file.
try:
    from airflow.sdk import DAG
except ImportError:
    from airflow.models.dag import DAG

try:
    from airflow.providers.standard.operators.bash import BashOperator
except ImportError:
    from airflow.operators.bash import BashOperator

with DAG("portable", schedule=None):
    BashOperator(task_id="shell", bash_command="x")
