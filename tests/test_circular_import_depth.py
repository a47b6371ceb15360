"""Where DRL009's walk stops: a cycle through a chain of helper modules is followed while at most
``MAX_DEPTH`` modules run at once, and past that nothing is reported."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.circular_imports import MAX_DEPTH
from tests.helpers import by_code, lint_repo

DAG_FILE = """\
from airflow import DAG
from airflow.operators.empty import EmptyOperator

from m1 import OWNER

with DAG("report", schedule=None, tags=[OWNER]):
    EmptyOperator(task_id="build")
"""


def chain(length: int) -> dict[str, str]:
    """``report`` asks m1 for a name m1 binds below its import of m2, each module imports the
    next, and the last imports ``report``: run again, it asks m1, paused, for that name."""
    files = {"dags/report.py": DAG_FILE, "dags/m1.py": 'import m2\n\nOWNER = "lab"\n'}
    for index in range(2, length):
        files[f"dags/m{index}.py"] = f"import m{index + 1}\n"
    files[f"dags/m{length}.py"] = "import report\n"
    return files


def _reported(root: Path, length: int) -> list[Diagnostic]:
    return by_code(lint_repo(root, chain(length), inventory=None, select=("DRL009",)), "DRL009")


# The chain's modules and the DAG file run again as `report`: length + 1 modules run at once.
@pytest.mark.parametrize(("length", "reported"), [(MAX_DEPTH - 1, 1), (MAX_DEPTH, 0)])
def test_the_walk_stops_past_its_bound(tmp_path: Path, length: int, reported: int) -> None:
    # The walk recurses three frames a module: 600 here, within Python's default limit of 1000,
    # but not when a tool wraps every function in another frame (mutation testing does).
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4000))
    try:
        found = _reported(tmp_path, length)
    finally:
        sys.setrecursionlimit(limit)
    assert len(found) == reported
    if found:
        assert (found[0].line, found[0].column) == (4, 1)
        assert found[0].message.startswith(
            "importing 'm1' runs a circular import back into this file: this file, run again "
            "under its module name, does 'from m1 import OWNER' while 'm1' is paused at its "
            "import on line 1, and 'OWNER' is bound only at line 3;"
        )
