import airflow.operators.dummy
import airflow.contrib.operators.awsbatch_operator
from airflow.contrib.operators.awsbatch_operator import AWSBatchOperator
from airflow.datasets import Dataset
from airflow.hooks.base_hook import BaseHook
from airflow.operators import dummy
from airflow.utils.context import Context
