# Helpers Airflow 2 had and Airflow 3 removed: each import fails, so the file does not load.
from airflow import PY312
from airflow.configuration import get
from airflow.contrib.hooks.ssh_hook import SSHHook
from airflow.utils.dates import days_ago
from airflow.sdk import DAG

with DAG("legacy", schedule=None, start_date=days_ago(1)):
    if PY312 and get("core", "dags_folder"):
        SSHHook(ssh_conn_id="box")
