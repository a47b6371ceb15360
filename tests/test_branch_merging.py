"""A task built in branches the walk cannot decide is one task: what the branches agree on is
known, anything else is unknown with the reason, and every value a branch may give is a
candidate (``resolve/tasks.py``, ``_merged``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.resolve.tasks import Field, ResolvedTask
from tests.helpers import lint_repo

REASON = "the task is built in branches that give it different values"
HEAD = """
import os

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

REGION = os.environ.get("REGION")
"""


def _one(tmp_path: Path, body: str) -> ResolvedTask:
    """The one task ``build`` of the DAG ``body`` builds (after ``HEAD``)."""
    found = lint_repo(tmp_path, {"dags/dag.py": HEAD + body}, inventory=None).tasks
    assert [task.task_id for task in found] == ["build"]
    return found[0]


def test_branches_that_agree_give_the_value_and_that_differ_give_candidates(
    tmp_path: Path,
) -> None:
    task = _one(
        tmp_path,
        """
with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x", queue="eu", pool="reports")
    elif REGION == "us":
        BashOperator(task_id="build", bash_command="x", queue="us", pool="reports")
    else:
        BashOperator(task_id="build", bash_command="x", queue="eu", pool="reports")
""",
    )
    assert task.fields["queue"] == Field(None, False, "argument", REASON, ("eu", "us"))
    assert task.fields["pool"] == Field("reports", True, "argument")
    assert dict(task.unresolved) == {"queue": REASON}


def test_a_branch_without_candidates_leaves_none(tmp_path: Path) -> None:
    task = _one(
        tmp_path,
        """
with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x", queue="eu")
    else:
        BashOperator(task_id="build", bash_command="x", queue=os.environ["QUEUE"])
""",
    )
    assert task.fields["queue"] == Field(None, False, "argument", REASON, ())
    assert dict(task.unresolved) == {"queue": REASON}


def test_candidates_of_a_branch_join_the_others_in_order(tmp_path: Path) -> None:
    task = _one(
        tmp_path,
        """
QUEUE = "big" if os.environ.get("BIG") else "small"

with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x", queue="eu")
    else:
        BashOperator(task_id="build", bash_command="x", queue=QUEUE)
""",
    )
    assert task.fields["queue"] == Field(None, False, "argument", REASON, ("eu", "big", "small"))


def test_branches_that_differ_in_form_only_agree(tmp_path: Path) -> None:
    """``0.0`` and ``-0.0`` are equal values written differently: one known value, the first
    branch's; a field after it that the branches do disagree on is still merged."""
    task = _one(
        tmp_path,
        """
with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x", pool_slots=0.0, deferrable=True)
    else:
        BashOperator(task_id="build", bash_command="x", pool_slots=-0.0, deferrable=False)
""",
    )
    slots = task.fields["pool_slots"]
    assert (slots, repr(slots.value)) == (Field(0.0, True, "argument"), "0.0")
    deferrable = task.fields["deferrable"]
    assert (deferrable.known, deferrable.reason, deferrable.candidates) == (
        False,
        REASON,
        (True, False),
    )
    assert dict(task.unresolved) == {"deferrable": REASON}


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [('"eu"', "None", ("eu", None)), ("None", '"eu"', (None, "eu"))],
)
def test_none_in_one_branch_is_a_value_of_its_own(
    tmp_path: Path, first: str, second: str, expected: tuple[object, ...]
) -> None:
    task = _one(
        tmp_path,
        f"""
with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x", queue={first})
    else:
        BashOperator(task_id="build", bash_command="x", queue={second})
""",
    )
    assert task.fields["queue"] == Field(None, False, "argument", REASON, expected)


def test_a_default_and_an_unknown_value_differ(tmp_path: Path) -> None:
    """The first branch leaves the executor to the default (``None``, known); the second gives
    one that cannot be known (its value is ``None`` too): not the same."""
    task = _one(
        tmp_path,
        """
with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x")
    else:
        BashOperator(task_id="build", bash_command="x", executor=os.environ["EXECUTOR"])
""",
    )
    assert task.fields["executor"] == Field(None, False, "default", REASON, ())
    assert dict(task.unresolved) == {"executor": REASON}


def test_unknown_branches_agree_only_with_the_same_candidates(tmp_path: Path) -> None:
    """Each branch's queue is unknown, with candidates of its own: all four are the task's."""
    task = _one(
        tmp_path,
        """
EU = "eu-a" if os.environ.get("A") else "eu-b"
US = "us-a" if os.environ.get("A") else "us-b"

with DAG("reports", schedule=None):
    if REGION == "eu":
        BashOperator(task_id="build", bash_command="x", queue=EU)
    else:
        BashOperator(task_id="build", bash_command="x", queue=US)
""",
    )
    assert task.fields["queue"] == Field(
        None, False, "argument", REASON, ("eu-a", "eu-b", "us-a", "us-b")
    )


def test_the_merged_task_takes_the_place_of_its_first_branch(tmp_path: Path) -> None:
    source = HEAD + (
        '\nwith DAG("reports", schedule=None):\n'
        '    if REGION == "eu":\n'
        '        BashOperator(task_id="build", bash_command="x", queue="eu")\n'
        '    BashOperator(task_id="middle", bash_command="x")\n'
        '    if REGION == "us":\n'
        '        BashOperator(task_id="build", bash_command="x", queue="us")\n'
    )
    found = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=None).tasks
    assert [(task.task_id, task.task.position.line) for task in found] == [
        ("build", 10),
        ("middle", 11),
    ]
    assert found[0].fields["queue"].candidates == ("eu", "us")
