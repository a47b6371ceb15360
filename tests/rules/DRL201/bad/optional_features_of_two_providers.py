"""amazon is installed; two of its modules raise AirflowOptionalProviderFeatureException at
import, each without another provider: both are reported."""

import airflow.providers.amazon.aws.queues.sqs
import airflow.providers.amazon.aws.transfers.azure_blob_to_s3
from airflow.sdk import DAG, task

with DAG("transfers", schedule=None):

    @task
    def query() -> None:
        pass

    query()
