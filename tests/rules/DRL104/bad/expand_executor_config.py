from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.sdk import DAG

with DAG("fan_out", schedule=None):
    KubernetesPodOperator.partial(task_id="pods", image="worker:1").expand(
        arguments=[["a"], ["b"]],
        executor_config=[{}, {}],
    )
