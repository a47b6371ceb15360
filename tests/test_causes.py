"""DRL105 reports each cause once: the expression that makes a routing value unknown, where it
is written, with the fields it sets and every task it reaches (``rules/causes.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.json import format_json
from dagroute_lint.formatters.sarif import format_sarif
from tests.helpers import by_code, lint_repo

HEADER = """\
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable
"""


def drl105(tmp_path: Path, source: str, extra: dict[str, str] | None = None) -> list[Diagnostic]:
    report = lint_repo(tmp_path, {"dags/dag.py": HEADER + source, **(extra or {})}, None)
    return by_code(report, "DRL105")


def test_several_causes_each_reported_once_where_written(tmp_path: Path) -> None:
    found = drl105(
        tmp_path,
        """
ARGS = {"queue": Variable.get("q"), "pool": os.environ["POOL"]}
with DAG("d", schedule=None, default_args=ARGS):
    for i in range(7):
        BashOperator(task_id=f"t{i}", bash_command="x")
""",
    )
    assert [(d.line, d.column) for d in found] == [(6, 18), (6, 45)]
    queue, pool = found
    assert queue.facts.item == "queue" and pool.facts.item == "pool"
    assert "(Airflow Variable (Variable.get)) sets the queue of 7 tasks in dag 'd'" in queue.message
    assert "('t0', 't1', 't2', 't3', 't4' and 2 more)" in queue.message
    assert "whether a worker serves them is unproven" in queue.message
    assert "(environment variable (os.environ))" in pool.message
    # Every task is in the facts, named or not.
    assert queue.facts.tasks == tuple(("d", f"t{i}") for i in range(7))
    assert queue.facts.dag_id == "d" and queue.facts.task_id is None
    # The tasks are built at one call: it is pointed at.
    assert [(r.line, r.column) for r in queue.related] == [(9, 9)]
    assert "7 tasks in dag 'd'" in queue.related[0].message


def test_one_task_with_two_causes_has_two_reports(tmp_path: Path) -> None:
    found = drl105(
        tmp_path,
        """
with DAG("d", schedule=None, default_args={"pool": Variable.get("p")}):
    BashOperator(task_id="a", bash_command="x", queue=os.environ["Q"])
""",
    )
    assert [(d.line, d.column, d.facts.item) for d in found] == [
        (6, 52, "pool"),
        (7, 55, "queue"),
    ]
    assert all(d.facts.tasks == (("d", "a"),) and d.facts.task_id == "a" for d in found)
    assert all("of task 'a' in dag 'd'; whether a worker serves it" in d.message for d in found)


def test_the_call_and_default_args_are_separate_causes(tmp_path: Path) -> None:
    found = drl105(
        tmp_path,
        """
with DAG("d", schedule=None, default_args={"queue": Variable.get("q")}):
    BashOperator(task_id="a", bash_command="x")
    BashOperator(task_id="b", bash_command="x")
    BashOperator(task_id="c", bash_command="x", queue=Variable.get("q"))
""",
    )
    assert [(d.line, d.facts.tasks) for d in found] == [
        (6, (("d", "a"), ("d", "b"))),
        (9, (("d", "c"),)),
    ]


def test_a_cause_in_another_module_is_reported_at_the_first_task(tmp_path: Path) -> None:
    found = drl105(
        tmp_path,
        """
from common.routing import ARGS

with DAG("d", schedule=None, default_args=ARGS):
    BashOperator(task_id="a", bash_command="x")
    BashOperator(task_id="b", bash_command="x")
""",
        {
            "dags/common/__init__.py": "",
            "dags/common/routing.py": 'import os\n\nARGS = {"queue": os.environ["Q"]}\n',
        },
    )
    (cause,) = found
    assert (cause.path.endswith("dag.py"), cause.line, cause.column) == (True, 9, 5)
    assert cause.facts.tasks == (("d", "a"), ("d", "b"))
    elsewhere, other_task = cause.related
    assert (Path(elsewhere.path).name, elsewhere.line, elsewhere.column) == ("routing.py", 3, 18)
    assert "environment variable (os.environ)" in elsewhere.message
    assert (other_task.line, other_task.column) == (10, 5)
    assert other_task.message == "task 'b' in dag 'd' built here"


def test_noqa_on_the_cause_line_silences_it_for_every_task(tmp_path: Path) -> None:
    found = drl105(
        tmp_path,
        """
QUEUE = os.environ["Q"]  # noqa: DRL105
POOL = os.environ["P"]
with DAG("d", schedule=None):
    BashOperator(task_id="a", bash_command="x", queue=QUEUE, pool=POOL)
    BashOperator(task_id="b", bash_command="x", queue=QUEUE, pool=POOL)
""",
    )
    (pool,) = found
    assert (pool.line, pool.facts.item) == (7, "pool")


def test_a_cause_in_a_class_init_is_reported_there(tmp_path: Path) -> None:
    # A class of the repository routing in its own __init__, which the walk runs: the call
    # there whose result cannot be known is the cause, for every task built from the class.
    found = drl105(
        tmp_path,
        """
from airflow.models import BaseOperator


class Routed(BaseOperator):
    def __init__(self, **kwargs):
        kwargs["queue"] = kwargs.get("queue") or pick()
        super().__init__(**kwargs)


with DAG("d", schedule=None):
    for i in range(3):
        Routed(task_id=f"r{i}")
""",
    )
    (cause,) = found
    assert (cause.line, cause.column) == (11, 50)  # pick()
    assert cause.facts.tasks == (("d", "r0"), ("d", "r1"), ("d", "r2"))


def test_json_and_sarif_list_every_task(tmp_path: Path) -> None:
    found = drl105(
        tmp_path,
        """
with DAG("d", schedule=None, default_args={"queue": Variable.get("q")}):
    for i in range(12):
        BashOperator(task_id=f"t{i}", bash_command="x")
""",
    )
    every = [{"dag_id": "d", "task_id": f"t{i}"} for i in range(12)]
    (entry,) = json.loads(format_json(found))
    assert entry["facts"]["tasks"] == every
    assert "and 7 more" in entry["message"]
    (result,) = json.loads(format_sarif(found))["runs"][0]["results"]
    assert result["properties"]["tasks"] == every
    (place,) = result["relatedLocations"]
    assert place["physicalLocation"]["region"] == {"startLine": 8, "startColumn": 9}


def test_causes_of_one_kind_on_one_line_for_the_same_tasks_are_one(tmp_path: Path) -> None:
    """``queue=os.environ["Q"], pool=os.environ["P"]`` is one line to change: one report. The
    same reason on another line, or for other tasks, stays its own."""
    found = drl105(
        tmp_path,
        """
with DAG("d", schedule=None):
    BashOperator(task_id="a", bash_command="x", queue=os.environ["Q"], pool=os.environ["P"])
    BashOperator(task_id="b", bash_command="x", queue=os.environ["Q"])
""",
    )
    assert [(d.line, d.column) for d in found] == [(7, 55), (8, 55)]
    assert "sets the queue and pool of task 'a' in dag 'd'" in found[0].message
    assert "sets the queue of task 'b' in dag 'd'" in found[1].message
