from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("train", schedule=None, default_args={"queue": "gpu"}):
    BashOperator(task_id="fit", bash_command="train.sh", queue=None, executor="KubernetesExecutor")
