"""Compatibility shims: a DAG file that picks its imports by Airflow's version is still seen,
and a DAG the walk cannot recognise is said, never left out in silence."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from dagroute_lint.extract import extract_module
from tests.linting import invoke, lint

FLAG = """\
from datetime import datetime

from airflow import __version__ as AIRFLOW_VERSION
from packaging.version import Version

AIRFLOW_V_3_0_PLUS = Version(Version(AIRFLOW_VERSION).base_version) >= Version("3.0.0")
"""

IF_SHIM = (
    FLAG
    + """
if AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import DAG, TaskGroup, task
    from airflow.providers.standard.operators.bash import BashOperator
else:
    from airflow.models.dag import DAG
    from airflow.decorators import task
    from airflow.utils.task_group import TaskGroup
    from airflow.operators.bash import BashOperator

with DAG("shim", start_date=datetime(2024, 1, 1), schedule=None, default_args={"pool": "p"}):
    BashOperator(task_id="hello", bash_command="echo hi", queue="main")
    with TaskGroup("grp"):

        @task(queue="main")
        def work():
            return 1

        work()
"""
)


def _model(source: str, name: str = "dag"):
    return extract_module(textwrap.dedent(source).encode(), f"{name}.py", name)


def test_a_version_flag_shim_keeps_the_dag_its_group_and_its_tasks() -> None:
    module = _model(IF_SHIM)
    assert len(module.dags) == 1
    assert [task.task_id.value for task in module.tasks] == ["hello", "work"]  # type: ignore[union-attr]
    assert all(task.dag == 0 for task in module.tasks)
    assert module.tasks[1].group == 0 and len(module.groups) == 1
    assert module.unmodelled == ()


def test_the_airflow_imports_of_both_branches_are_the_halves_of_a_shim() -> None:
    """Only one branch runs on a deployment, chosen by Airflow's version: neither branch's
    import of Airflow itself fails on the deployment's version, as the two halves of
    ``try``/``except ImportError`` cannot. A provider's import depends on the runtime, not the
    version: it stays judged (DRL201), as an import outside the shim is."""
    module = _model(IF_SHIM)
    guarded = {site.module: site.guarded for site in module.imports}
    assert guarded["airflow.sdk"] and guarded["airflow.models.dag"]
    assert guarded["airflow.operators.bash"]
    assert not guarded["airflow.providers.standard.operators.bash"]
    assert not guarded["packaging.version"]


def test_a_branch_import_with_no_counterpart_is_not_a_shim() -> None:
    module = _model(
        FLAG
        + """
if AIRFLOW_V_3_0_PLUS:
    import pandas
from airflow.sdk import DAG
"""
    )
    assert {site.module: site.guarded for site in module.imports}["pandas"] is False


def test_no_airflow_2_import_error_for_the_branch_a_3_x_deployment_skips(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcome = lint(tmp_path, IF_SHIM, monkeypatch)
    assert "DRL204" not in outcome.codes()
    routes = invoke(
        tmp_path,
        ["routes", "dags", "--inventory", "dagroute.toml", "--no-cache", "--format", "json"],
        monkeypatch,
    )
    tasks = {task["task_id"]: task for task in json.loads(routes.stdout)["tasks"]}
    assert set(tasks) == {"hello", "grp.work"}
    assert tasks["grp.work"]["pool"] == "p" and tasks["hello"]["queue"] == "main"


def test_a_dag_class_reexported_by_a_repository_compat_module_is_airflows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compat = tmp_path / "dags" / "company"
    compat.mkdir(parents=True)
    (compat / "__init__.py").write_text("")
    (compat / "compat.py").write_text(
        FLAG
        + "if AIRFLOW_V_3_0_PLUS:\n    from airflow.sdk import DAG\n"
        + "else:\n    from airflow.models.dag import DAG\n"
    )
    outcome = lint(
        tmp_path,
        """
        from airflow.providers.standard.operators.empty import EmptyOperator
        from company.compat import DAG

        with DAG("reexported", schedule=None):
            EmptyOperator(task_id="a", queue="main", on_success_callback=print)
        """,
        monkeypatch,
    )
    assert outcome.codes() == []
    routes = invoke(
        tmp_path,
        ["routes", "dags", "--inventory", "dagroute.toml", "--no-cache", "--format", "json"],
        monkeypatch,
    )
    assert [task["dag_id"] for task in json.loads(routes.stdout)["tasks"]] == ["reexported"]


@pytest.mark.parametrize(
    ("source", "line", "said"),
    [
        (
            """
            from company.missing import DAG
            from airflow.providers.standard.operators.empty import EmptyOperator

            with DAG("hidden", schedule=None):
                EmptyOperator(task_id="a")
            """,
            4,
            "company.missing.DAG() is not known to be Airflow's DAG (its module is not followed)",
        ),
        (
            """
            import os

            if os.environ.get("NEW"):
                from airflow.sdk import DAG
            else:
                DAG = None
            from airflow.providers.standard.operators.empty import EmptyOperator

            with DAG("maybe", schedule=None):
                EmptyOperator(task_id="a")
            """,
            9,
            "DAG() is not known to be Airflow's DAG (one of several callables ('DAG' is "
            "assigned conditionally))",
        ),
    ],
)
def test_a_dag_the_walk_cannot_recognise_is_said(
    source: str, line: int, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose DAG is not seen would read as clean: "0 places where tasks could not be
    seen" over a file that defines a DAG."""
    outcome = lint(tmp_path, source, monkeypatch)
    (found,) = outcome.diagnostics
    assert found["code"] == "DRL106" and found["line"] == line
    assert found["message"].startswith(said)
    assert found["message"].endswith("the DAG and the tasks it holds are not seen")
    text = invoke(tmp_path, ["dags", "--inventory", "dagroute.toml", "--no-cache"], monkeypatch)
    assert "1 place where tasks could not be seen" in text.stderr


def test_only_names_of_one_role_make_a_shim_binding() -> None:
    """An operator's spelling decides its provider: a shim does not make the two one."""
    from dagroute_lint.catalog import airflow_names as names

    assert names.role("airflow.operators.bash.BashOperator") is None
    assert names.role("airflow.sdk.DAG") == names.role("airflow.models.dag.DAG") == "DAG class"
    assert names.role("airflow.sdk.task") == names.role("airflow.decorators.task") == "@task"
    assert names.role("airflow.sdk.setup") != names.role("airflow.sdk.task")
