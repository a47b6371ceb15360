"""DRL009's walk has no depth bound to hide behind: it runs the walk on a stack of its own, so a
cycle through a chain of helper modules is found however long the chain is."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.diagnostics import Diagnostic
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


# 200 modules was the recursive walk's old bound; 400 would need 1,200 Python frames, past
# Python's default limit of 1,000.
@pytest.mark.parametrize("length", [2, 199, 200, 400])
def test_a_cycle_through_a_long_chain_is_reported(tmp_path: Path, length: int) -> None:
    found = _reported(tmp_path, length)
    assert len(found) == 1
    assert (found[0].line, found[0].column) == (4, 1)
    assert found[0].message.startswith(
        "importing 'm1' runs a circular import back into this file: this file, run again "
        "under its module name, does 'from m1 import OWNER' while 'm1' is paused at its "
        "import on line 1, and 'OWNER' is bound only at line 3;"
    )


def test_a_long_chain_without_a_cycle_is_clean(tmp_path: Path) -> None:
    files = chain(400)
    files["dags/m400.py"] = "VALUE = 1\n"
    assert by_code(lint_repo(tmp_path, files, inventory=None, select=("DRL009",)), "DRL009") == []
