import airflow.sdk
from airflow.sdk.definitions.context import Context
