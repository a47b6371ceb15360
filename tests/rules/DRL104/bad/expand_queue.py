from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("fan_out", schedule=None):
    BashOperator.partial(task_id="run").expand(
        bash_command=["a.sh", "b.sh"],
        queue=["small", "large"],
    )
