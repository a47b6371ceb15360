from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Written for Airflow 2's CeleryKubernetesExecutor, which Airflow 3 removed.
with DAG("train", schedule=None):
    BashOperator(
        task_id="fit",
        bash_command="train.sh",
        executor="CeleryKubernetesExecutor",
        queue="kubernetes",
    )
    BashOperator(task_id="report", bash_command="report.sh", executor="CeleryKubernetesExecutor")
