from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.providers.postgres.hooks.postgres import PostgresHook
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Each provider imported at module level is reported once, with the tasks it breaks: 'lost' goes
# to no worker, 'touch' lands where amazon is but postgres is not, 'count' where neither is.
with DAG("archive", schedule=None):
    BashOperator(task_id="lost", bash_command="lost", queue="reports")
    BashOperator(task_id="touch", bash_command="touch flag", queue="aws")
    BashOperator(task_id="count", bash_command="count")

HOOKS = (S3Hook, PostgresHook)
