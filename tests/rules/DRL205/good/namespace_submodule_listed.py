"""google.cloud.storage is what the runtime's google-cloud-storage installs."""

from google.cloud import storage

from airflow.sdk import DAG, task

with DAG("uploads", schedule=None):

    @task
    def upload() -> None:
        storage.Client()

    upload()
