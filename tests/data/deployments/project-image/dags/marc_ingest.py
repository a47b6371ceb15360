import pendulum
import pymarc
import requests
from airflow.decorators import dag, task
from airflow.providers.sftp.hooks.sftp import SFTPHook


@dag(schedule="@daily", start_date=pendulum.datetime(2024, 1, 1), catchup=False)
def marc_ingest():
    @task
    def fetch() -> str:
        SFTPHook(ssh_conn_id="vendor_sftp").get_conn()
        return requests.__name__ + pymarc.__name__

    fetch()


marc_ingest()
