from airflow.sdk import DAG, task

# The handler that catches the ImportError does not raise: the import is guarded. A later
# handler's raise is for other errors.
try:
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook
except ImportError:
    S3Hook = None
except ValueError:
    raise

with DAG("archive", schedule=None):

    @task
    def upload() -> None:
        if S3Hook is not None:
            S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    upload()
