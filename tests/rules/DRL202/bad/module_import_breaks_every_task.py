from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task

# The worker re-imports the whole file, so the shell task needs amazon too.
with DAG("archive", schedule=None):
    BashOperator(task_id="touch", bash_command="touch flag")

    @task(queue="aws")
    def upload() -> None:
        S3Hook().load_string("done", key="archive/flag", bucket_name="lab")

    upload()
