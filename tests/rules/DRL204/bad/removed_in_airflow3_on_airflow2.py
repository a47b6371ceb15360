# On Airflow 2 the same paths are judged on Airflow 2: what Airflow 3 removed is not the reason.
from airflow import DAG
from airflow.contrib.sensors.bash_sensor import Popen
from airflow.contrib.task_runner.cgroup_task_runner import CgroupTaskRunner

with DAG("legacy", schedule=None):
    pass
