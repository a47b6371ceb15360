from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

with DAG("reports", schedule=None, default_args={"conn_id": "warehouse"}):
    SQLExecuteQueryOperator(task_id="count", sql="select 1")
    S3CreateBucketOperator(task_id="bucket", bucket_name="lab", aws_conn_id="aws_default")
