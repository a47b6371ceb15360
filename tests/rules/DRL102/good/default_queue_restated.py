from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Restating the default queue routes nothing away; it is not worth a report.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="train.sh", queue="default")
