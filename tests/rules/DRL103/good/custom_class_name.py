from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The last dotted segment of a configured module path names the executor too.
with DAG("train", schedule=None):
    BashOperator(task_id="fit", bash_command="train.sh", executor="GpuExecutor")
