from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

K8S = "airflow.providers.cncf.kubernetes.executors.kubernetes_executor.KubernetesExecutor"

with DAG("train", schedule=None):
    BashOperator(task_id="by_name", bash_command="x", executor="KubernetesExecutor")
    BashOperator(task_id="by_module_path", bash_command="x", executor=K8S)
    BashOperator(task_id="by_alias", bash_command="x", executor="gpu")
