"""DRL204: Airflow import paths the deployment's Airflow version lacks, and the fixes it offers."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.catalog.providers import moved_import, shim_module_names
from dagroute_lint.diagnostics import ImportFix
from tests.helpers import by_code, lint_repo

AIRFLOW2 = """
[deployment]
airflow_version = "2.10"
executors = ["LocalExecutor"]

[[workers]]
name = "local"
runtime = "base"

[runtimes.base]
"""


def drl204(tmp_path: Path, source: str, inventory: str | None = None) -> list[str]:
    report = lint_repo(tmp_path, {"dags/dag.py": source}, inventory=inventory)
    return [d.message for d in by_code(report, "DRL204")]


def test_removed_module_fails_the_file_and_names_replacement_and_distribution(
    tmp_path: Path,
) -> None:
    (message,) = drl204(tmp_path, "from airflow.operators.dummy import DummyOperator\n")
    assert message == (
        "'airflow.operators.dummy.DummyOperator' is gone in Airflow 3 (there is no module "
        "'airflow.operators.dummy'), so the file fails to import; use "
        "airflow.providers.standard.operators.empty.EmptyOperator "
        "(needs apache-airflow-providers-standard)"
    )


def test_moved_into_a_provider_names_the_distribution(tmp_path: Path) -> None:
    (message,) = drl204(tmp_path, "from airflow.operators.bash import BashOperator\n")
    assert message == (
        "'airflow.operators.bash.BashOperator' moved to "
        "airflow.providers.standard.operators.bash.BashOperator "
        "(needs apache-airflow-providers-standard) in Airflow 3; the old path works only through "
        "a deprecation shim"
    )


def test_moved_into_the_sdk_and_plain_re_exports(tmp_path: Path) -> None:
    # airflow.models.dag warns (a deprecation shim); airflow and airflow.models re-export DAG and
    # BaseOperator lazily without a warning on 3.3, so those neither fail nor warn.
    messages = drl204(
        tmp_path,
        "from airflow.models.dag import DAG\nfrom airflow.models import BaseOperator\n"
        "from airflow import DAG as Dag\n",
    )
    assert messages == [
        "'airflow.models.dag.DAG' moved to airflow.sdk.DAG in Airflow 3; the old path works only "
        "through a deprecation shim",
    ]


def test_one_diagnostic_per_moved_name_each_with_its_fix(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {"dags/dag.py": "from airflow.operators.python import PythonOperator, get_current_context"},
        inventory=None,
    )
    fixes = [d.fix for d in by_code(report, "DRL204")]
    assert sorted(fixes, key=repr) == [
        ImportFix(
            "airflow.operators.python",
            "PythonOperator",
            "airflow.providers.standard.operators.python",
            "PythonOperator",
        ),
        ImportFix(
            "airflow.operators.python", "get_current_context", "airflow.sdk", "get_current_context"
        ),
    ]


def test_subdag_and_module_imports_are_reported_without_a_fix(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": """
            from airflow.operators.subdag import SubDagOperator
            import airflow.operators.bash_operator
            from airflow.operators import dummy
            """
        },
        inventory=None,
    )
    found = by_code(report, "DRL204")
    assert [(d.line, d.fix) for d in found] == [(1, None), (2, None), (3, None)]
    assert "SubDAGs were removed in Airflow 3.0" in found[0].message
    assert "there is no module 'airflow.operators.dummy'" in found[2].message


def test_renames_only_airflow_3_made_are_not_offered_as_fixes(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/dag.py": "from airflow import Dataset\n"}, inventory=None)
    (diagnostic,) = by_code(report, "DRL204")
    assert diagnostic.fix is None
    assert "forwards it to airflow.sdk.Asset, which is not a drop-in" in diagnostic.message


def test_a_name_a_shim_module_does_not_forward_fails_the_import(tmp_path: Path) -> None:
    messages = drl204(
        tmp_path,
        "from airflow.operators.bash import BashOperator, some_helper\n"
        "from airflow.hooks.base import BaseHook, something_real\n",
    )
    assert messages[1:-1] == [
        "'airflow.operators.bash.some_helper' is gone in Airflow 3: 'airflow.operators.bash' is "
        "only a deprecation shim that does not forward 'some_helper', so the file fails to "
        "import (ImportError); its other names moved to airflow.providers.standard.operators.bash"
    ]
    # airflow.hooks.base is a real module in Airflow 3: names no table lists are not reported.
    assert messages[-1].startswith("'airflow.hooks.base.BaseHook' moved to airflow.sdk.BaseHook")
    assert shim_module_names("airflow.operators.python") >= {"PythonOperator"}
    assert shim_module_names("airflow.hooks.base") is None


def test_datasets_are_gone_in_airflow_3_and_assets_are_suggested(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {"dags/dag.py": "from airflow.datasets import Dataset, DatasetAlias\n"},
        inventory=None,
    )
    found = by_code(report, "DRL204")
    assert [d.fix for d in found] == [None, None]
    assert found[0].message == (
        "'airflow.datasets.Dataset' is gone in Airflow 3 (there is no module 'airflow.datasets'), "
        "so the file fails to import; use airflow.sdk.Asset; Airflow 3 renamed datasets to assets"
    )


@pytest.mark.parametrize(
    ("module", "name", "drop_in"),
    [
        ("airflow.operators.bash", "BashOperator", True),  # 3.x shim, same name
        ("airflow.operators.dummy", "DummyOperator", True),  # 2.x alias of EmptyOperator
        ("airflow.models.dag", "DAG", True),  # hand-kept forward, same name
        ("airflow.operators.subdag", "SubDagOperator", False),  # only a suggestion
        ("airflow", "Dataset", False),  # renamed by a 3.x shim
        ("airflow.utils.context", "Context", False),  # the 3.x shim points at a module
        ("airflow.decorators.python", "python_task", False),  # a real module's successor
        ("airflow.datasets", "Dataset", False),  # a removed path's suggested replacement
        ("airflow.utils.dag_parsing_context", "get_parsing_context", False),  # likewise
    ],
)
def test_drop_in_moves(module: str, name: str, drop_in: bool) -> None:
    move = moved_import(module, name)
    assert move is not None and move.drop_in is drop_in


def test_guarded_relative_and_current_imports_are_not_reported(tmp_path: Path) -> None:
    messages = drl204(
        tmp_path,
        """
        from typing import TYPE_CHECKING
        try:
            from airflow.providers.standard.operators.bash import BashOperator
        except ImportError:
            from airflow.operators.bash import BashOperator
        if TYPE_CHECKING:
            from airflow.utils.context import Context
        from airflow.sdk import DAG
        from airflow.exceptions import AirflowException
        from .operators.bash import BashOperator as Local
        """,
    )
    assert messages == []


def test_imports_inside_task_functions_count(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": """
            from airflow.sdk import DAG, task
            with DAG("d"):
                @task
                def work():
                    from airflow.operators.python import get_current_context
                    return get_current_context()
                work()
                work.override(task_id="again")()
            """
        },
        inventory=None,
    )
    assert [(d.line, d.column) for d in by_code(report, "DRL204")] == [(5, 9)]


def test_airflow_2_reports_only_what_airflow_2_lacks(tmp_path: Path) -> None:
    messages = drl204(
        tmp_path,
        """
        from airflow.operators.bash import BashOperator
        from airflow.operators.dummy import DummyOperator
        from airflow.sdk import DAG, task
        """,
        inventory=AIRFLOW2,
    )
    assert messages == [
        "'airflow.sdk' does not exist in Airflow 2 (it arrived with Airflow 3.0): the file fails "
        "to import; on Airflow 2 import airflow.DAG, airflow.decorators.task instead"
    ]


def test_noqa_suppresses_and_select_excludes(tmp_path: Path) -> None:
    source = "from airflow.operators.bash import BashOperator  # noqa: DRL204\n"
    assert drl204(tmp_path, source) == []
    report = lint_repo(
        tmp_path,
        {"dags/dag.py": "from airflow.operators.bash import BashOperator\n"},
        inventory=None,
        select=("DRL1",),
    )
    assert by_code(report, "DRL204") == []
