"""``DAG(**CONFIG)``, ``@dag(**CONFIG)`` and ``TaskGroup(**CONFIG)``: the spread carries dag_id
and default_args as much as a named keyword does."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import routes, value

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup, dag
"""


def test_dag_config_spread(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
CONFIG = {"dag_id": "spread", "default_args": {"queue": "from_config"}}
with DAG(**CONFIG):
    BashOperator(task_id="t", bash_command="x")
with DAG("named", **{"schedule": None}):
    BashOperator(task_id="u", bash_command="x")
""",
    )
    assert tasks["t"].dag_id == "spread"
    assert value(tasks["t"], "queue") == "from_config"
    assert tasks["u"].dag_id == "named"
    assert value(tasks["u"], "queue") == "default"


def test_dag_decorator_and_group_spreads(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
CONFIG = {"default_args": {"pool": "p"}}
GROUP = {"default_args": {"queue": "g"}}

@dag(**CONFIG)
def pipeline():
    with TaskGroup("grp", **GROUP):
        BashOperator(task_id="t", bash_command="x")

pipeline()
""",
    )
    task = tasks["grp.t"]
    assert task.dag_id == "pipeline"
    assert value(task, "pool") == "p"
    assert value(task, "queue") == "g"


def test_spread_that_cannot_be_known(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
from airflow.sdk import Variable
with DAG("d", **Variable.get("conf", deserialize_json=True)):
    BashOperator(task_id="t", bash_command="x")
""",
    )
    assert not tasks["t"].fields["queue"].known
