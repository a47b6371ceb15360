"""Task ids under TaskGroups: prefixed as ``TaskGroup.child_id`` prefixes them, or unknown.

An id is reported only when every group id and ``prefix_group_id`` on the way to the DAG is
known: a task under a group whose id comes from the environment has an id nobody can name
before the file runs, and must not be given a guessed one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import lint_repo
from tests.linting import invoke

DAG = """\
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup

with DAG("groups"):
    with TaskGroup("a"):
        with TaskGroup("b"):
            BashOperator(task_id="nested", bash_command="x")
    with TaskGroup("c", prefix_group_id=False):
        BashOperator(task_id="unprefixed", bash_command="x")
        with TaskGroup("d"):
            BashOperator(task_id="under_unprefixed", bash_command="x")
    with TaskGroup("e"):
        with TaskGroup("f", prefix_group_id=False):
            BashOperator(task_id="inner_unprefixed", bash_command="x")
    with TaskGroup(os.environ["G"]):
        BashOperator(task_id="dynamic_group", bash_command="x")
        with TaskGroup("h"):
            BashOperator(task_id="dynamic_parent", bash_command="x")
    with TaskGroup("i", prefix_group_id=os.environ["P"]):
        BashOperator(task_id="dynamic_flag", bash_command="x")
    with TaskGroup(os.environ["G"], prefix_group_id=False):
        BashOperator(task_id="dynamic_but_unprefixed", bash_command="x")
"""

UNKNOWN = "the id or prefix_group_id of an enclosing TaskGroup cannot be known statically"


def test_task_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(DAG, encoding="utf-8")
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    tasks = json.loads(outcome.stdout)["tasks"]
    assert [(task["line"], task["task_id"]) for task in tasks] == [
        (9, "a.b.nested"),
        (11, "unprefixed"),
        (13, "d.under_unprefixed"),
        (16, "inner_unprefixed"),
        (18, None),
        (20, None),
        (22, None),
        (24, "dynamic_but_unprefixed"),
    ]
    for task in tasks:
        if task["task_id"] is None:
            assert task["unresolved"] == ["task_id"]
            assert task["reasons"] == {"task_id": UNKNOWN}
        else:
            assert task["unresolved"] == []


def test_a_task_group_function_called_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``@task_group`` suffixes a repeated group id (``grp__1``), and its tasks follow it."""
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG, task_group\n\n"
        "@task_group\n"
        "def grp():\n"
        '    BashOperator(task_id="t", bash_command="x")\n\n'
        'with DAG("groups"):\n'
        "    grp()\n"
        "    grp()\n",
        encoding="utf-8",
    )
    outcome = invoke(tmp_path, ["routes", "dags", "--no-cache", "--format", "json"], monkeypatch)
    tasks = json.loads(outcome.stdout)["tasks"]
    assert [task["task_id"] for task in tasks] == ["grp.t", "grp__1.t"]


GROUPS = """\
from airflow.sdk import DAG, task, task_group


@task
def t(): ...


@task_group
def grp():
    t()


@task_group(group_id="load__1")
def load():
    t()

"""


def dag_task_ids(tmp_path: Path, body: str) -> list[tuple[str | None, str | None]]:
    """The ``(dag_id, task_id)`` of each task of a DAG file made of ``GROUPS`` and ``body``."""
    found = lint_repo(tmp_path, {"dags/dag.py": GROUPS + body}, inventory=None).tasks
    return [(task.dag_id, task.task_id) for task in found]


def test_a_task_group_function_called_again_counts_on_from_the_highest_suffix(
    tmp_path: Path,
) -> None:
    """Each call after the second takes the next ``__N`` after the highest one taken, never
    ``__1`` again (Airflow 3.3.2's DagBag: ``grp.t``, ``grp__1.t``, ``grp__2.t``, ``grp__3.t``)."""
    ids = dag_task_ids(
        tmp_path,
        """
with DAG("reports", schedule=None):
    grp()
    grp()
    grp()
    grp()
""",
    )
    assert ids == [
        ("reports", "grp.t"),
        ("reports", "grp__1.t"),
        ("reports", "grp__2.t"),
        ("reports", "grp__3.t"),
    ]


def test_group_ids_collide_only_within_one_dag(tmp_path: Path) -> None:
    """Each DAG keeps its own set of used group ids: the same ``@task_group`` called once in
    one DAG and twice in the next is ``grp`` in both, then ``grp__1`` in the second."""
    ids = dag_task_ids(
        tmp_path,
        """
with DAG("first", schedule=None):
    grp()

with DAG("second", schedule=None):
    grp()
    grp()
""",
    )
    assert ids == [("first", "grp.t"), ("second", "grp.t"), ("second", "grp__1.t")]


def test_a_group_id_that_already_ends_in_a_suffix_counts_on_from_it(tmp_path: Path) -> None:
    """``group_id="load__1"`` called again is ``load__2``, then ``load__3``: the suffix is
    counted on from the id without it, never added a second time (``load__1__1``)."""
    ids = dag_task_ids(
        tmp_path,
        """
with DAG("reports", schedule=None):
    load()
    load()
    load()
""",
    )
    assert ids == [("reports", "load__1.t"), ("reports", "load__2.t"), ("reports", "load__3.t")]


def test_a_group_id_meets_the_task_ids_made_before_it(tmp_path: Path) -> None:
    """Airflow counts task ids (and each group's join ids) among the used group ids, in the order
    they are made: ``EmptyOperator(task_id="grp")`` then ``grp()`` is ``grp__1.t`` in DagBag
    (3.3.2 and 2.10.5), ``grp()`` then ``EmptyOperator(task_id="grp__3")`` then ``grp()`` is
    ``grp__4.t``; a task made after the group changes nothing."""
    ids = dag_task_ids(
        tmp_path,
        """
from airflow.providers.standard.operators.empty import EmptyOperator

with DAG("reports", schedule=None):
    EmptyOperator(task_id="grp")
    grp()
    EmptyOperator(task_id="grp__4")
    load()

with DAG("later", schedule=None):
    grp()
    EmptyOperator(task_id="grp__3")
    grp()
""",
    )
    assert ids == [
        ("reports", "grp"),
        ("reports", "grp__1.t"),
        ("reports", "grp__4"),
        ("reports", "load__1.t"),
        ("later", "grp.t"),
        ("later", "grp__3"),
        ("later", "grp__4.t"),
    ]


def test_a_group_made_after_a_task_of_unknown_id_has_an_unknown_id(tmp_path: Path) -> None:
    """The unknown id may be the group's own, which Airflow would then suffix: the group's tasks
    have unknown ids, not guessed ones; a group made before that task keeps its id."""
    ids = dag_task_ids(
        tmp_path,
        """
import os

from airflow.providers.standard.operators.empty import EmptyOperator

with DAG("reports", schedule=None):
    grp()
    EmptyOperator(task_id=os.environ["TASK"])
    grp()
""",
    )
    assert ids == [("reports", "grp.t"), ("reports", None), ("reports", None)]
    source = (
        "import os\nfrom airflow.providers.standard.operators.empty import EmptyOperator\n"
        + GROUPS
        + 'with DAG("d", schedule=None):\n    EmptyOperator(task_id=os.environ["T"])\n'
        + "    grp()\n"
    )
    tasks = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None).tasks
    (unknown,) = [task for task in tasks if task.task_id is None and task.task.taskflow]
    assert dict(unknown.unresolved)["task_id"].startswith(
        "an enclosing @task_group's id may meet the id of a task made before it"
    )


def test_only_the_full_id_meets_a_group(tmp_path: Path) -> None:
    """A task id meets a ``@task_group``'s id only as the same full id: ``x.y.grp`` and
    ``x.grp__2`` leave ``grp`` alone, and ``load__7`` leaves ``load__1`` alone (the suffix
    counting reads only ids that collide); a task id that cannot be known may be any id."""
    cases = {
        "dotted": 'EmptyOperator(task_id="x.y.grp")\n    grp()',
        "dotted_suffixed": 'EmptyOperator(task_id="x.grp__2")\n    grp()',
        "suffix_of_a_suffixed_id": 'EmptyOperator(task_id="load__7")\n    load()',
        "unknown_task_id": 'EmptyOperator(task_id=os.environ["T"])\n    grp()',
    }
    body = "import os\nfrom airflow.providers.standard.operators.empty import EmptyOperator\n"
    for dag_id, statements in cases.items():
        body += f'\nwith DAG("{dag_id}", schedule=None):\n    {statements}\n'
    assert dag_task_ids(tmp_path, body) == [
        ("dotted", "x.y.grp"),
        ("dotted", "grp.t"),
        ("dotted_suffixed", "x.grp__2"),
        ("dotted_suffixed", "grp.t"),
        ("suffix_of_a_suffixed_id", "load__7"),
        ("suffix_of_a_suffixed_id", "load__1.t"),
        ("unknown_task_id", None),
        ("unknown_task_id", None),
    ]


def test_the_reason_names_the_suffix_only_where_a_suffix_is_what_is_unknown(
    tmp_path: Path,
) -> None:
    """A task under a plain ``TaskGroup`` inside a ``@task_group`` a task id may meet has the
    enclosing group's reason; a ``@task_group`` whose own id comes from the environment has the
    reason of any group id that cannot be known."""
    body = """
import os
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import TaskGroup


@task_group
def outer():
    with TaskGroup("inner"):
        t()


@task_group(group_id=os.environ["G"])
def anonymous():
    t()


with DAG("nested", schedule=None):
    EmptyOperator(task_id=os.environ["T"])
    outer()

with DAG("dynamic", schedule=None):
    EmptyOperator(task_id="x")
    anonymous()
"""
    tasks = lint_repo(tmp_path, {"dags/dag.py": GROUPS + body}, inventory=None).tasks
    reasons = {
        task.dag_id: dict(task.unresolved)["task_id"]
        for task in tasks
        if task.task_id is None and task.task.taskflow
    }
    assert reasons["nested"].startswith("an enclosing @task_group's id may meet the id of a task")
    assert reasons["dynamic"] == UNKNOWN
