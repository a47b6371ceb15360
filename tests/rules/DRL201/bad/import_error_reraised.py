from airflow.exceptions import AirflowOptionalProviderFeatureException
from airflow.sdk import DAG, task

try:
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook
except ImportError as error:
    raise AirflowOptionalProviderFeatureException(error)

with DAG("archive", schedule=None):

    @task
    def upload() -> None:
        S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    upload()
