"""A file list brings in the DAG files that import a listed file, directly or transitively."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import dag_repository
from tests.test_cli import invoke

DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
{imports}
with DAG("{name}"):
    BashOperator(task_id="build", bash_command="x", queue={queue})
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dag_repository(
        tmp_path,
        {
            # `from common import routing` imports the submodule: a dependency on routing.py.
            "dags/submodule.py": DAG.format(
                imports="from common import routing", name="a", queue="routing.REPORTS_QUEUE"
            ),
            "dags/direct.py": DAG.format(
                imports="from common.routing import REPORTS_QUEUE", name="b", queue="REPORTS_QUEUE"
            ),
            "dags/literal.py": DAG.format(imports="", name="c", queue='"reports"'),
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_listed_module_brings_in_its_importers_and_names_them(repo: Path) -> None:
    code, out, err = invoke("dags/common/routing.py")
    assert code == 1
    files = sorted({line.split(":")[0] for line in out.splitlines()})
    assert files == ["dags/direct.py", "dags/submodule.py"]  # not literal.py: it imports nothing
    assert "also linted 2 files that import the files given: dags/direct.py, dags/submodule.py" in (
        err
    )
    assert "Found 2 problems in 2 files." in err


def test_a_listed_dag_nobody_imports_is_linted_alone(repo: Path) -> None:
    code, out, err = invoke("dags/literal.py")
    assert code == 1
    assert {line.split(":")[0] for line in out.splitlines()} == {"dags/literal.py"}
    assert "also linted" not in err


def test_quiet_keeps_the_diagnostics_and_drops_the_note(repo: Path) -> None:
    code, out, err = invoke("--quiet", "dags/common/routing.py")
    assert code == 1 and len(out.splitlines()) == 2
    assert "also linted" not in err
