# Two packages the DAG processor runtime does not list: one diagnostic each.
import polars
import sklearn
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("features", schedule=None):
    BashOperator(task_id="fit", bash_command=f"fit {polars.__name__} {sklearn.__name__}")
