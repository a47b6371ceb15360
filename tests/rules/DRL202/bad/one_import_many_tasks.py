from airflow.providers.amazon.aws.hooks.s3 import S3Hook
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# One missing provider at the top of the file breaks every task that lands on the general
# workers: one diagnostic at the import lists the first tasks and counts the rest.
with DAG("exports", schedule=None):
    for table in ["orders", "customers", "invoices", "refunds", "payments"]:
        BashOperator(task_id=f"export_{table}", bash_command=f"export {table}")
    BashOperator(task_id="either", bash_command="sync", queue="imports")

HOOK = S3Hook
