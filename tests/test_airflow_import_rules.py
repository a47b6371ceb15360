"""DRL204 on paths the verdict table has no row for, and on which imports it judges at all.

A module the generator never tried still fails when a package above it fails (Airflow 3 has no
``airflow.contrib``, so nothing under it imports); the deprecation-shim check is about Airflow 3
only; a guarded or relative import is skipped without ending the walk over the file's imports.
Which checked release a deployment's version is judged on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.catalog.import_verdicts import Checked, checked_release, import_verdict
from tests.helpers import by_code, lint_repo, lint_source
from tests.test_airflow_imports import AIRFLOW2

NO_REPLACEMENT = "so the file does not load; no replacement that imports on Airflow 3.3.2 is known"


def drl204(source: str, inventory: str | None = None) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in lint_source(source, inventory, select=("DRL204",))]


def test_the_untried_paths_sit_under_a_package_airflow_3_lacks() -> None:
    """The premise of the cases below, read from the shipped table: Airflow 1.10's
    ``airflow.contrib.kubernetes`` has no row (Airflow 2.10 no longer had it), and
    ``airflow.contrib`` fails on Airflow 3 and imports on Airflow 2."""
    assert import_verdict("airflow.contrib.kubernetes.pod", "Pod", Checked("3.3.2")) is None
    assert import_verdict("airflow.contrib.kubernetes", "pod", Checked("3.3.2")) is None
    contrib = import_verdict("airflow.contrib", None, Checked("3.3.2"))
    assert contrib is not None and contrib.kind == "fails"
    airflow2 = import_verdict("airflow.contrib", None, Checked("2.10.5"))
    assert airflow2 is not None and airflow2.kind == "works"


def test_a_module_under_a_failing_package_fails_with_it() -> None:
    """``airflow.contrib.kubernetes``'s parent is the failing package itself."""
    assert drl204("from airflow.contrib.kubernetes import pod\n") == [
        (
            1,
            "'airflow.contrib.kubernetes.pod' fails to import on Airflow 3.3.2 "
            f"(ModuleNotFoundError), {NO_REPLACEMENT}",
        )
    ]


def test_a_module_two_levels_under_a_failing_package_fails_with_it() -> None:
    """``airflow.contrib.kubernetes.pod``: the package in between has no row either, so the
    walk goes on up to ``airflow.contrib``."""
    assert drl204("from airflow.contrib.kubernetes.pod import Pod\n") == [
        (
            1,
            "'airflow.contrib.kubernetes.pod.Pod' fails to import on Airflow 3.3.2 "
            f"(ModuleNotFoundError), {NO_REPLACEMENT}",
        )
    ]
    assert drl204("import airflow.contrib.kubernetes.pod\n") == [
        (
            1,
            "'airflow.contrib.kubernetes.pod' fails to import on Airflow 3.3.2 "
            f"(ModuleNotFoundError), {NO_REPLACEMENT}",
        )
    ]


def test_under_a_package_that_imports_nothing_is_known() -> None:
    """On Airflow 2 ``airflow.contrib`` imports: a module under it without a row is unknown, and
    an unknown is not reported."""
    assert drl204("from airflow.contrib.kubernetes.pod import Pod\n", AIRFLOW2) == []


def test_names_a_shim_module_does_not_forward_are_judged_on_airflow_3_only() -> None:
    """``airflow.operators.bash`` and ``airflow.operators.python`` are only deprecation shims in
    Airflow 3, serving the names of their table; in Airflow 2 they are the real modules, where
    ``is_venv_installed`` imports and ``some_helper`` is simply unknown."""
    source = (
        "from airflow.operators.python import is_venv_installed\n"
        "from airflow.operators.bash import some_helper\n"
    )
    assert drl204(source, AIRFLOW2) == []
    assert drl204(source) == [
        (
            1,
            "'airflow.operators.python.is_venv_installed' fails to import on Airflow 3.3.2 "
            f"(ImportError), {NO_REPLACEMENT}",
        ),
        (
            2,
            "'airflow.operators.bash.some_helper' fails to import on Airflow 3 (ImportError): "
            "'airflow.operators.bash' is only a deprecation shim that does not forward "
            "'some_helper', so the file does not load; its other names moved to "
            "airflow.providers.standard.operators.bash",
        ),
    ]


def test_imports_after_a_guarded_or_relative_one_are_still_judged() -> None:
    """The compatibility shim's fallback half and a relative import are skipped; the removed
    helper imported after them is reported all the same."""
    source = (
        "try:\n"
        "    from airflow.providers.standard.operators.bash import BashOperator\n"
        "except ImportError:\n"
        "    from airflow.operators.bash import BashOperator\n"
        "from .helpers import OWNER\n"
        "from airflow.utils.dates import days_ago\n"
    )
    assert drl204(source) == [
        (
            6,
            "'airflow.utils.dates.days_ago' fails to import on Airflow 3.3.2 (ImportError), "
            f"{NO_REPLACEMENT}",
        )
    ]


@pytest.mark.parametrize(
    ("release", "version", "asked"),
    [
        ((2, 9), "2.9.3", None),  # a minor version is judged on its newest checked patch
        ((2, 9, 1), "2.9.3", None),
        ((2, 2), "2.2.5", None),
        ((3, 0, 2), "3.0.6", None),
        ((2, 1), "2.2.5", "2.1"),  # none checked: the nearest release of the major, an estimate
        ((2, 12, 0), "2.11.2", "2.12.0"),
        ((3, 4), "3.3.2", "3.4"),
        ((2,), "2.11.2", None),  # a major version alone: its newest checked release
        (None, "3.3.2", None),  # no version: Airflow 3, as every rule assumes
    ],
)
def test_the_release_a_deployment_is_judged_on(
    release: tuple[int, ...] | None, version: str, asked: str | None
) -> None:
    assert checked_release(release, 3) == Checked(version, asked)


def test_an_open_version_is_not_judged_as_the_newest(tmp_path: Path) -> None:
    """An inventory without ``airflow_version``: an import that works on some known release is
    not reported (DRL902 says the version is open); one that fails on all of them still is."""
    report = lint_repo(
        tmp_path,
        {
            "dags/dag.py": (
                "from airflow.operators.bash_operator import BashOperator\n"
                "from airflow.operators.dummy import DummyOperator\n"
                "from airflow.kubernetes.kube_client import _disable_verify_ssl\n"
            )
        },
        inventory="""
[deployment]
executors = ["CeleryExecutor"]
[[workers]]
name = "w"
runtime = "base"
[runtimes.base]
python = "3.11"
""",
    )
    found = [(d.line, d.severity) for d in by_code(report, "DRL204")]
    assert found == [(3, "error")]
    assert any("names no Airflow version" in d.message for d in by_code(report, "DRL902"))
