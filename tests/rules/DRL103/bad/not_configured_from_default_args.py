from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# LocalExecutor is installed with Airflow, but this deployment does not configure it.
with DAG("train", schedule=None, default_args={"executor": "LocalExecutor"}):
    BashOperator(task_id="prepare", bash_command="prepare.sh")
    BashOperator(task_id="fit", bash_command="train.sh", executor="KubernetesExecutor")
