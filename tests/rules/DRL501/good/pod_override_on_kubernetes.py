from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from kubernetes.client import models as k8s

BIG = k8s.V1Pod(spec=k8s.V1PodSpec(containers=[k8s.V1Container(name="base")]))

with DAG("train", schedule=None, default_args={"executor": "KubernetesExecutor"}):
    BashOperator(task_id="fit", bash_command="train.sh", executor_config={"pod_override": BIG})
