import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# The tasks skipped come first: one without executor_config, one whose executor is unknown, one
# whose executor reads it; the two after them are one finding, the second counted.
with DAG("prepare", schedule=None):
    BashOperator(task_id="plain", bash_command="x")

with DAG("train", schedule=None, default_args={"executor_config": {"pod_override": None, "x": 1}}):
    BashOperator(task_id="anywhere", bash_command="x", executor=os.environ["EXECUTOR"])
    BashOperator(task_id="in_pod", bash_command="x", executor="KubernetesExecutor")
    BashOperator(task_id="fit", bash_command="train.sh")
    BashOperator(task_id="score", bash_command="score.sh")
