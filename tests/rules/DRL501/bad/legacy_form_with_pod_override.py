from airflow.sdk import dag, task
from kubernetes.client import models as k8s


@task(
    executor="KubernetesExecutor",
    executor_config={
        "KubernetesExecutor": {"request_memory": "4Gi"},
        "pod_override": k8s.V1Pod(),
    },
)
def fit() -> None:
    print("fit")


@dag(schedule=None)
def train():
    fit()


train()
