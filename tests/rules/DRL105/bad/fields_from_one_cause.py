import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

# Fields unknown for the same reason: one report names them all, in the order queue,
# executor, pool, at the first of them that is written.
with DAG("reports", schedule=None):
    BashOperator(
        task_id="build",
        bash_command="make report",
        pool=os.environ["POOL"],
        queue=os.environ["QUEUE"],
        executor=os.environ["EXECUTOR"],
    )
    BashOperator(
        task_id="render",
        bash_command="make render",
        pool=os.environ["POOL"],
        queue=os.environ["QUEUE"],
    )
