from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Accepted, but the scheduler routes every map index on the .partial() values.
with DAG("fan_out", schedule=None):
    BashOperator.partial(task_id="run", bash_command="run.sh").expand(pool=["a", "b"])
    BashOperator.partial(task_id="elsewhere", bash_command="run.sh").expand(
        executor=["CeleryExecutor", "KubernetesExecutor"],
    )
