"""google.cloud is shared by many distributions: the runtime's google-cloud-storage does not
provide google.cloud.batch_v1 (google-cloud-batch does)."""

from google.cloud import batch_v1, storage

from airflow.sdk import DAG, task

with DAG("batch_jobs", schedule=None):

    @task
    def submit() -> None:
        batch_v1.BatchServiceClient()
        storage.Client()

    submit()
