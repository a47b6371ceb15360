"""amazon and microsoft.azure are installed: the Azure-to-S3 transfer module
imports."""

from airflow.providers.amazon.aws.transfers.azure_blob_to_s3 import AzureBlobStorageToS3Operator
from airflow.sdk import DAG

with DAG("mirror", schedule=None):
    AzureBlobStorageToS3Operator(
        task_id="copy", container_name="raw", dest_s3_key="s3://lab/raw/", prefix=""
    )
