from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.sensors.time import TimeSensor
from airflow.sdk import DAG

# default_args defer the sensor and the pod, not the BashOperator (it takes no deferrable).
with DAG("waits", schedule=None, default_args={"deferrable": True}):
    TimeSensor(task_id="at_six", target_time="06:00")
    KubernetesPodOperator(task_id="pod", name="p", image="worker:1")
    BashOperator(task_id="shell", bash_command="x")
