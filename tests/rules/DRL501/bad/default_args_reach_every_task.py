from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# One finding where the config is written, naming the first task it reaches.
with DAG("train", schedule=None, default_args={"executor_config": {"pod_override": None, "x": 1}}):
    BashOperator(task_id="prepare", bash_command="prepare.sh")
    BashOperator(task_id="fit", bash_command="train.sh")
    BashOperator(task_id="score", bash_command="score.sh")
    BashOperator(task_id="in_pod", bash_command="x", executor="KubernetesExecutor")
