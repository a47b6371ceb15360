from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task_group


@task_group
def per_region(region, queue):
    BashOperator(task_id="load", bash_command="load.sh", queue=queue)


with DAG("regions", schedule=None):
    per_region.partial(queue="small").expand(region=["eu", "us"])
