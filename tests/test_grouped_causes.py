"""Many reports of one cause read as one: DRL101 per task, grouped per queue in ``--statistics``
and the text summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from tests.helpers import CELERY_K8S, write_repo

DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
with DAG("exports", schedule=None):
    for table in ["orders", "customers", "invoices"]:
        BashOperator(task_id=f"export_{table}", bash_command="x", queue="gpu")
    BashOperator(task_id="fit", bash_command="x", queue="ml")
    BashOperator(task_id="served", bash_command="x", queue="imports")
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, {"dags/exports.py": DAG, "dagroute.toml": CELERY_K8S})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["dags", "--select", "DRL101", *args])
    return result.exit_code, result.stdout, result.stderr


def test_each_task_is_reported_and_the_summary_groups_them_per_queue(repo: Path) -> None:
    code, out, err = _invoke()
    assert code == 1
    assert len(out.splitlines()) == 4
    assert err.splitlines()[-2:] == [
        "Found 4 problems in 1 file.",
        "DRL101: 4 problems from 2 causes: queue 'gpu' (3), queue 'ml' (1).",
    ]


def test_statistics_count_each_queue_under_the_rule(repo: Path) -> None:
    _, out, _ = _invoke("--statistics")
    assert out.splitlines() == [
        "4\tDRL101\tunserved-queue",
        "3\t      \t  queue 'gpu'",
        "1\t      \t  queue 'ml'",
    ]
    _, out, _ = _invoke("--statistics", "--format", "json")
    assert json.loads(out) == [
        {
            "code": "DRL101",
            "name": "unserved-queue",
            "count": 4,
            "causes": [{"cause": "queue 'gpu'", "count": 3}, {"cause": "queue 'ml'", "count": 1}],
        }
    ]
