from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable

# Each value that cannot be known is one cause, reported once where it is written, whatever
# the number of tasks it reaches: the queue of the five tasks of the loop, the pool of all six,
# and the queue that task 'z' is given on its own call.
args = {"queue": Variable.get("q"), "pool": Variable.get("p")}

with DAG("probe4", start_date=datetime(2024, 1, 1), schedule=None, default_args=args):
    for i in range(5):
        BashOperator(task_id=f"t{i}", bash_command="x")
    BashOperator(task_id="z", bash_command="x", queue=Variable.get("q"))
