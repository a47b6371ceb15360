"""An operator class imported from a repository module that imports it (a compat module, a
package ``__init__``) is the class that module imported, which is what Airflow holds: its
qualified name is followed through the re-export, never printed as the re-export's path."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import lint_repo

EMPTY = "airflow.providers.standard.operators.empty.EmptyOperator"
STANDARD = "apache-airflow-providers-standard"
DAG = """
from airflow.sdk import DAG
from helpers.compat import EmptyOperator

with DAG("d", schedule=None):
    EmptyOperator(task_id="t")
"""


def operator_of(root: Path, compat: str) -> tuple[str | None, str | None, dict[str, str]]:
    files = {"dags/dag.py": DAG, "dags/helpers/__init__.py": "", "dags/helpers/compat.py": compat}
    (task,) = lint_repo(root, files, inventory=None).tasks
    return task.operator, task.provider, dict(task.unresolved)


def test_a_plain_reexport_is_the_imported_class(tmp_path: Path) -> None:
    compat = "from airflow.providers.standard.operators.empty import EmptyOperator\n"
    assert operator_of(tmp_path, compat) == (EMPTY, STANDARD, {})


def test_a_try_except_import_error_reexport_is_the_try_branch(tmp_path: Path) -> None:
    """tests_common's ``compat``: the try branch, which is what imports where Airflow parses."""
    compat = """
try:
    from airflow.providers.common.sql.operators.generic_transfer import GenericTransfer
    from airflow.providers.standard.operators.empty import EmptyOperator
except ImportError:
    from airflow.operators.empty import EmptyOperator
"""
    assert operator_of(tmp_path, compat) == (EMPTY, STANDARD, {})


def test_a_reexport_of_a_reexport_is_followed(tmp_path: Path) -> None:
    compat = "from helpers.ops import EmptyOperator\n"
    ops = "from airflow.operators.empty import EmptyOperator\n"
    files = {
        "dags/dag.py": DAG,
        "dags/helpers/__init__.py": "",
        "dags/helpers/compat.py": compat,
        "dags/helpers/ops.py": ops,
    }
    (task,) = lint_repo(tmp_path, files, inventory=None).tasks
    # Airflow 3 holds the Airflow 2 path by where its shim forwards.
    assert task.operator == EMPTY


def test_a_conditional_reexport_is_unknown_not_the_reexport_path(tmp_path: Path) -> None:
    compat = """
import os
if os.environ.get("X"):
    from airflow.providers.standard.operators.empty import EmptyOperator
else:
    from airflow.providers.standard.operators.bash import BashOperator as EmptyOperator
"""
    operator, provider, unresolved = operator_of(tmp_path, compat)
    assert (operator, provider) == (None, None)
    assert "EmptyOperator' of module helpers.compat is not known" in unresolved["operator"]


def test_a_repository_class_keeps_its_own_name(tmp_path: Path) -> None:
    compat = """
from airflow.models.baseoperator import BaseOperator

class EmptyOperator(BaseOperator):
    pass
"""
    assert operator_of(tmp_path, compat)[0] == "helpers.compat.EmptyOperator"


INVENTORY = """
[deployment]
{version}executors = ["CeleryExecutor"]

[[workers]]
name = "celery"
queues = ["default"]
runtime = "base"

[runtimes.base]
providers = ["standard"]
packages = []
"""
SDK_FIRST = """
try:
    from airflow.sdk import BaseOperator
    from airflow.providers.standard.operators.empty import EmptyOperator
except ImportError:
    from airflow.operators.empty import EmptyOperator
"""


@pytest.mark.parametrize(
    ("version", "operator"),
    [
        ("3.3.2", EMPTY),
        ("2.10.5", "airflow.operators.empty.EmptyOperator"),
        # No version: the try branch, as for any shim (DRL902 says the version is open).
        (None, EMPTY),
    ],
)
def test_a_try_that_fails_on_the_deployment_runs_its_handler(
    tmp_path: Path, version: str | None, operator: str
) -> None:
    """``from airflow.sdk import ...`` certainly fails on 2.10.5 (``import_verdicts``): the
    ``except ImportError`` branch is what Airflow runs, in the re-exporting module and in the
    DAG file alike."""
    stated = f'airflow_version = "{version}"\n' if version is not None else ""
    dag_file = DAG.replace("from helpers.compat import EmptyOperator", SDK_FIRST)
    for files in (
        {"dags/dag.py": DAG, "dags/helpers/__init__.py": "", "dags/helpers/compat.py": SDK_FIRST},
        {"dags/dag.py": dag_file},
    ):
        root = tmp_path / str(len(files))
        (task,) = lint_repo(root, files, inventory=INVENTORY.format(version=stated)).tasks
        assert task.operator == operator


def test_the_statements_after_the_failing_import_do_not_run(tmp_path: Path) -> None:
    source = """
from airflow import DAG
from airflow.providers.standard.operators.bash import BashOperator

QUEUE = "before"
try:
    QUEUE = "tried"
    from airflow.sdk import BaseOperator
    QUEUE = "after"
except ImportError:
    POOL = "handled"
else:
    POOL = "else"

with DAG("d", schedule=None):
    BashOperator(task_id="t", bash_command="x", queue=QUEUE, pool=POOL)
"""
    inventory = INVENTORY.format(version='airflow_version = "2.10.5"\n')
    (task,) = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=inventory).tasks
    assert (task.fields["queue"].value, task.fields["pool"].value) == ("tried", "handled")
