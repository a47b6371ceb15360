"""Paths given on the command line: the inventory and settings files stand for every DAG."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import dag_repository
from tests.test_cli import invoke

BAD = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue="reports")
"""
GOOD = BAD.replace('"reports"', '"imports"').replace('"lab"', '"lab_imports"')


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dag_repository(
        tmp_path,
        {
            "dags/bad.py": BAD,
            "dags/good.py": GOOD,
            "tests/test_bad.py": BAD.replace('"lab"', '"lab_tests"'),
            "other.toml": "x = 1\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def reported_files(out: str) -> list[str]:
    return [line.split(":")[0] for line in out.splitlines()]


def test_python_files_alone_are_linted_alone(repo: Path) -> None:
    code, out, _ = invoke("dags/good.py")
    assert (code, out) == (0, "")


@pytest.mark.parametrize("changed", ["dagroute.toml", "pyproject.toml"])
def test_inventory_or_settings_file_lints_every_dag_folder(repo: Path, changed: str) -> None:
    code, out, err = invoke("dags/good.py", changed)
    assert code == 1
    assert reported_files(out) == ["dags/bad.py"]  # tests/ is outside the `dags` setting
    assert f"{changed} is the deployment inventory or the settings: linting every DAG (dags" in err


def test_inventory_named_by_the_settings_counts(repo: Path) -> None:
    (repo / "deploy").mkdir()
    (repo / "dagroute.toml").rename(repo / "deploy" / "inventory.toml")
    (repo / "pyproject.toml").write_text(
        '[tool.dagroute-lint]\ndags = ["dags"]\ninventory = "deploy/inventory.toml"\n'
    )
    assert reported_files(invoke("deploy/inventory.toml")[1]) == ["dags/bad.py"]


def test_without_dags_setting_the_project_root_is_every_dag(repo: Path) -> None:
    (repo / "pyproject.toml").unlink()
    code, out, _ = invoke("dagroute.toml")
    assert code == 1
    assert reported_files(out) == ["dags/bad.py", "tests/test_bad.py"]


def test_other_toml_files_are_passed_over(repo: Path) -> None:
    code, out, err = invoke("other.toml", "dags/good.py")
    assert (code, out) == (0, "")
    assert "passed over other.toml" in err
    assert "1 problem" not in err and "All checks passed!" in err


def test_broken_inventory_among_the_paths_exits_two(repo: Path) -> None:
    (repo / "dagroute.toml").write_text("[deployment\n")
    code, _, err = invoke("dagroute.toml")
    assert code == 2
    assert "dagroute.toml:1:" in err and "Traceback" not in err
