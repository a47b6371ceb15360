from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# No pool, pool=None and "default_pool" all mean Airflow's default pool, which always exists.
with DAG("nightly", schedule=None, default_args={"pool": "etl"}):
    BashOperator(task_id="a", bash_command="x", pool=None)
    BashOperator(task_id="b", bash_command="x", pool="default_pool")

with DAG("weekly", schedule=None):
    BashOperator(task_id="c", bash_command="x")
