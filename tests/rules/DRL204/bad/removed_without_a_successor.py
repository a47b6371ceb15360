# Names Airflow 3 removed with nothing to move to: the message says where Airflow 2 pointed.
from airflow.contrib.sensors.bash_sensor import Popen
from airflow.contrib.task_runner.cgroup_task_runner import CgroupTaskRunner
from airflow.sdk import DAG

with DAG("legacy", schedule=None):
    pass
