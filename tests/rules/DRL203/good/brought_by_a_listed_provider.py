import boto3
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task

# The runtime lists the amazon and celery providers: installing them brought boto3 and flower.
with DAG("buckets", schedule=None):

    @task
    def monitor() -> None:
        import flower

        print(flower.__name__)

    monitor() >> BashOperator(task_id="sync", bash_command="sync.sh")

CLIENT = boto3.client
