"""DRL204: Airflow import paths the deployment's Airflow version lacks, and the fixes it offers."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.catalog.import_verdicts import Checked, import_verdict
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
        "'airflow.operators.dummy.DummyOperator' fails to import on Airflow 3.3.2 "
        "(ModuleNotFoundError), so the file does not load; use "
        "airflow.providers.standard.operators.empty.EmptyOperator "
        "(needs apache-airflow-providers-standard)"
    )


def test_moved_into_a_provider_names_the_distribution(tmp_path: Path) -> None:
    (message,) = drl204(tmp_path, "from airflow.operators.bash import BashOperator\n")
    assert message == (
        "'airflow.operators.bash.BashOperator' imports on Airflow 3.3.2 only through a "
        "deprecation shim (DeprecatedImportWarning) slated for removal; use "
        "airflow.providers.standard.operators.bash.BashOperator "
        "(needs apache-airflow-providers-standard)"
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
        "'airflow.models.dag.DAG' imports on Airflow 3.3.2 only through a deprecation shim "
        "(DeprecatedImportWarning) slated for removal; use airflow.sdk.DAG",
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
    assert found[2].message.endswith(
        "use airflow.providers.standard.operators.empty (needs apache-airflow-providers-standard)"
    )


def test_renames_only_airflow_3_made_are_not_offered_as_fixes(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/dag.py": "from airflow import Dataset\n"}, inventory=None)
    (diagnostic,) = by_code(report, "DRL204")
    assert diagnostic.fix is None
    assert diagnostic.message.endswith(
        "use airflow.sdk.Asset; not a drop-in replacement, check its use before switching"
    )


def test_a_name_a_shim_module_does_not_forward_fails_the_import(tmp_path: Path) -> None:
    messages = drl204(
        tmp_path,
        "from airflow.operators.bash import BashOperator, some_helper\n"
        "from airflow.hooks.base import BaseHook, something_real\n",
    )
    assert messages[1:-1] == [
        "'airflow.operators.bash.some_helper' fails to import on Airflow 3 (ImportError): "
        "'airflow.operators.bash' is only a deprecation shim that does not forward "
        "'some_helper', so the file does not load; its other names moved to "
        "airflow.providers.standard.operators.bash"
    ]
    # airflow.hooks.base is a real module in Airflow 3: names no table lists are not reported.
    assert messages[-1].startswith("'airflow.hooks.base.BaseHook' imports on Airflow 3.3.2 only")
    assert messages[-1].endswith("use airflow.sdk.BaseHook")
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
        "'airflow.datasets.Dataset' fails to import on Airflow 3.3.2 (ModuleNotFoundError), so "
        "the file does not load; use airflow.sdk.Asset; Airflow 3 renamed datasets to assets"
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


def test_airflow_2_reports_only_what_fails_or_warns_on_airflow_2(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": """
            from airflow.operators.bash import BashOperator
            from airflow.operators.dummy import DummyOperator
            from airflow.sdk import DAG, task
            from airflow.utils.dates import days_ago
            """
        },
        inventory=AIRFLOW2,
    )
    found = by_code(report, "DRL204")
    assert [d.message for d in found] == [
        "'airflow.operators.dummy.DummyOperator' imports on Airflow 2.10.5 only through a "
        "deprecation shim (DeprecationWarning) slated for removal; use "
        "airflow.operators.empty.EmptyOperator",
        "'airflow.sdk.DAG' fails to import on Airflow 2.10.5 (ModuleNotFoundError): airflow.sdk "
        "arrived with Airflow 3.0, so the file does not load; use airflow.DAG",
        "'airflow.sdk.task' fails to import on Airflow 2.10.5 (ModuleNotFoundError): airflow.sdk "
        "arrived with Airflow 3.0, so the file does not load; use airflow.decorators.task",
    ]
    # Airflow 2's own alias is a fix; the Airflow 2 spelling of an airflow.sdk name is not.
    assert [d.fix for d in found] == [
        ImportFix(
            "airflow.operators.dummy", "DummyOperator", "airflow.operators.empty", "EmptyOperator"
        ),
        None,
        None,
    ]


def test_removed_helpers_fail_on_airflow_3(tmp_path: Path) -> None:
    messages = drl204(
        tmp_path,
        """
        from airflow import PY312
        from airflow.utils.dates import days_ago
        from airflow.configuration import get
        from airflow.contrib.hooks.ssh_hook import SSHHook
        from airflow.www.auth import has_access
        """,
    )
    assert [m.split(" (")[0] for m in messages] == [
        "'airflow.PY312' fails to import on Airflow 3.3.2",
        "'airflow.utils.dates.days_ago' fails to import on Airflow 3.3.2",
        "'airflow.configuration.get' fails to import on Airflow 3.3.2",
        "'airflow.contrib.hooks.ssh_hook.SSHHook' fails to import on Airflow 3.3.2",
        "'airflow.www.auth.has_access' fails to import on Airflow 3.3.2",
    ]
    assert messages[3].endswith(
        "use airflow.providers.ssh.hooks.ssh.SSHHook (needs apache-airflow-providers-ssh)"
    )


def test_a_replacement_that_does_not_import_is_not_suggested(tmp_path: Path) -> None:
    # The http provider renamed SimpleHttpOperator to HttpOperator: Airflow 2.10's alias points
    # at a name that provider 6 no longer has, so neither a message nor --fix may name it.
    report = lint_repo(
        tmp_path,
        {"dags/dag.py": "from airflow.operators.http_operator import SimpleHttpOperator\n"},
        inventory=None,
    )
    (diagnostic,) = by_code(report, "DRL204")
    assert diagnostic.fix is None
    assert "SimpleHttpOperator (needs" not in diagnostic.message
    verdict = import_verdict(
        "airflow.providers.http.operators.http", "SimpleHttpOperator", Checked("3.3.2")
    )
    assert verdict is not None and verdict.kind != "works"


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
