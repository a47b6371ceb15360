# The moves table knows only the module these names went to (a "*" row): a name is offered
# there only when that module really has it.
from airflow.contrib.hooks.aws_sns_hook import SnsHook
from airflow.contrib.hooks.aws_sns_hook import NoSuchHook
from airflow.sdk import DAG

with DAG("notify", schedule=None):
    pass
