"""DAGs held in a dict: tasks attached with dag=dags[...] or in `with dags[...]:`."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

dags = {}
dags["ws"] = DAG("container_ws", start_date=datetime(2024, 1, 1), schedule=None)
dags["batch"] = DAG(
    "container_batch",
    start_date=datetime(2024, 1, 1),
    schedule=None,
    default_args={"queue": "batch"},
)

BashOperator(task_id="ws_poll", bash_command="poll", queue="websocket", dag=dags["ws"])
with dags["batch"]:
    BashOperator(task_id="batch_run", bash_command="run")
for region in ("eu", "us"):
    BashOperator(task_id=f"batch_{region}", bash_command="run", pool=region, dag=dags["batch"])

# DAGs only in a dict are not found by the DagBag: expose each one at module level.
for key, value in dags.items():
    globals()[f"dag_{key}"] = value
