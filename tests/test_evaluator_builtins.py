"""Builtins and string methods on known values are computed as Python computes them; on unknown
values they are unknown for their argument's reason, never for the builtin's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import lint_repo, routes, value

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Variable
NAMES = ("eu", "us", "apac")
SIZES = [3, 1, 2]
"""


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("str(1) + str(True) + str(None) + str(1.5) + str()", "1TrueNone1.5"),
        ('str(int("7") + int("ff", 16) + int(2.9))', "264"),
        ("str(float(1)) + str(bool(SIZES)) + str(bool([]))", "1.0TrueFalse"),
        ("str(round(2.5)) + str(round(2.567, 2)) + str(abs(-3))", "22.573"),
        ("str(min(SIZES)) + str(max(SIZES)) + str(sum(SIZES)) + str(sum(SIZES, 10))", "13616"),
        ('min("b", "a") + max(NAMES)', "aus"),
        ('"-".join(list(NAMES)) + "-".join(reversed(tuple(NAMES)))', "eu-us-apacapac-us-eu"),
        ('" Eu ".strip().lower() + "a,b".split(",")[1] + "x".upper().zfill(3)', "eub00X"),
        ('str("abc".startswith("a")) + "q_eu".removeprefix("q_")', "Trueeu"),
    ],
)
def test_builtins_of_known_values(tmp_path: Path, expression: str, expected: str) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + f'with DAG("d"):\n    BashOperator(task_id="t", bash_command="x", queue={expression})\n',
    )
    assert value(tasks["t"], "queue") == expected


def test_enumerate_zip_and_copies_drive_loops(tmp_path: Path) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    for index, name in enumerate(NAMES, start=1):
        BashOperator(task_id=f"e{index}_{name}", bash_command="x")
    for name, size in zip(list(NAMES), SIZES):
        BashOperator(task_id=f"z_{name}", bash_command="x", pool_slots=size)
    for name in NAMES:  # neither loop above changed NAMES
        BashOperator(task_id=f"again_{name}", bash_command="x")
""",
    )
    names = ("eu", "us", "apac")
    expected = [f"e{index}_{name}" for index, name in enumerate(names, start=1)]
    expected += [f"{loop}_{name}" for loop in ("z", "again") for name in names]
    assert sorted(tasks) == sorted(expected)
    assert value(tasks["z_apac"], "pool_slots") == 2


def test_an_iterator_yields_its_items_once(tmp_path: Path) -> None:
    """A second loop over the same ``zip()``, ``enumerate()`` or ``itertools`` result builds
    nothing in Python: its tasks are never invented, and the loop is a DRL106 place (a first
    pass left early would leave the rest); a list made of one is iterated as often as wanted."""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
import itertools

with DAG("d"):
    pairs = zip(NAMES, SIZES)
    for name, size in pairs:
        BashOperator(task_id=f"z_{name}", bash_command="x")
    for name, size in pairs:
        BashOperator(task_id=f"again_{name}", bash_command="x")
    grid = itertools.product(["a"], [1, 2])
    list(grid)
    [BashOperator(task_id=f"p_{a}{b}", bash_command="x") for a, b in grid]
    kept = list(enumerate(NAMES))
    for index, name in kept:
        BashOperator(task_id=f"k{index}", bash_command="x")
    for index, name in kept:
        BashOperator(task_id=f"k2_{index}", bash_command="x")
"""
        },
        inventory=None,
    )
    ids = sorted(task.task_id for task in report.tasks if task.task_id is not None)
    assert ids == sorted(
        [f"z_{name}" for name in ("eu", "us", "apac")]
        + [f"k{index}" for index in range(3)]
        + [f"k2_{index}" for index in range(3)]
    )
    places = [d.message for d in report.diagnostics if d.code == "DRL106"]
    assert any("zip() was iterated already" in place for place in places), places
    assert any("itertools.product() was iterated already" in place for place in places), places


def test_a_set_s_order_is_not_guessed(tmp_path: Path) -> None:
    """Iterating a set of strings follows hashes Python randomises per process: ``list()`` of
    one is not a list whose order the walk knows."""
    tasks = routes(
        tmp_path,
        HEADER
        + """
with DAG("d"):
    BashOperator(task_id="t", bash_command="x", queue=list({"a", "b"})[0])
""",
    )
    assert not tasks["t"].fields["queue"].known


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ('int("x")', "int() raises on these arguments"),
        ('str(Variable.get("q"))', "result of calling str() on Airflow Variable (Variable.get)"),
        ('Variable.get("q").upper()', "Airflow Variable (Variable.get)"),
        ("min([])", "min() raises on these arguments"),
    ],
)
def test_builtins_of_unknown_values_name_their_cause(
    tmp_path: Path, expression: str, reason: str
) -> None:
    tasks = routes(
        tmp_path,
        HEADER
        + f'with DAG("d"):\n    BashOperator(task_id="t", bash_command="x", queue={expression})\n',
    )
    resolved = tasks["t"].fields["queue"]
    assert not resolved.known
    assert resolved.reason == reason


def test_a_list_of_a_dags_tasks_links_a_task_made_after_it(tmp_path: Path) -> None:
    """``list(dag.tasks) >> watcher()`` after the ``with DAG`` block (a provider system test's
    last line): the tasks the DAG held then, and the task made outside any DAG joins it."""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": HEADER
            + """
from airflow.sdk import task

@task(queue="watch")
def watcher():
    pass

with DAG("d") as dag:
    BashOperator(task_id="a", bash_command="x")

list(dag.tasks) >> watcher()
"""
        },
        inventory=None,
    )
    tasks = {task.task_id: task for task in report.tasks}
    assert sorted(tasks) == ["a", "watcher"]
    assert tasks["watcher"].dag_id == "d"
    assert value(tasks["watcher"], "queue") == "watch"
