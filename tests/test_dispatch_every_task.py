"""DRL101 and DRL102 look at every task, whatever the tasks before it were: one skipped task
(never dispatched, on the default queue, on another executor) must not hide the next."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linting import lint

INVENTORY = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor", "KubernetesExecutor"]
default_queue = "main"

[[workers]]
name = "celery"
executor = "CeleryExecutor"
queues = ["main"]
runtime = "base"

[[workers]]
name = "pods"
executor = "KubernetesExecutor"
runtime = "base"

[runtimes.base]
providers = ["standard", "celery", "cncf.kubernetes"]
"""

SOURCE = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

POD = "KubernetesExecutor"

with DAG("order"):
    EmptyOperator(task_id="never_dispatched", queue="reports")
    BashOperator(task_id="none_on_pods", bash_command="x", queue=None, executor=POD)
    BashOperator(task_id="default_on_pods", bash_command="x", queue="main", executor=POD)
    BashOperator(task_id="served", bash_command="x", queue="main")
    BashOperator(task_id="unserved", bash_command="x", queue="reports")
    BashOperator(task_id="ignored", bash_command="x", queue="reports", executor=POD)
"""


def test_each_task_is_judged_on_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcome = lint(tmp_path, SOURCE, monkeypatch, inventory=INVENTORY)
    assert [(d["code"], d["line"]) for d in outcome.diagnostics] == [
        ("DRL101", 12),
        ("DRL102", 13),
    ]
    assert outcome.diagnostics[1]["message"] == (
        "task 'ignored' in dag 'order' sets queue 'reports' (argument), but its executor "
        "KubernetesExecutor ignores queues; the queue does not decide where it runs"
    )


def test_an_executor_without_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no_celery_worker = INVENTORY.replace('name = "celery"', 'name = "gone"').replace(
        'executor = "CeleryExecutor"\nqueues', 'executor = "KubernetesExecutor"\nqueues'
    )
    source = SOURCE.split("with DAG", maxsplit=1)[0] + (
        'with DAG("order"):\n    BashOperator(task_id="lost", bash_command="x")\n'
    )
    outcome = lint(tmp_path, source, monkeypatch, inventory=no_celery_worker)
    assert [(d["code"], d["line"]) for d in outcome.diagnostics] == [("DRL101", 8)]
    assert outcome.diagnostics[0]["message"] == (
        "task 'lost' in dag 'order' routes to queue 'main', but no CeleryExecutor worker is "
        "declared; it will stay queued and never start"
    )


def test_an_unknown_executor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = SOURCE.split("with DAG", maxsplit=1)[0] + (
        'with DAG("order"):\n'
        '    BashOperator(task_id="edge", bash_command="x", executor="EdgeExecutor")\n'
    )
    outcome = lint(tmp_path, source, monkeypatch, inventory=INVENTORY)
    assert [(d["code"], d["line"], d["column"]) for d in outcome.diagnostics] == [("DRL103", 8, 5)]
    assert outcome.diagnostics[0]["message"] == (
        "task 'edge' in dag 'order' names executor 'EdgeExecutor' (argument), which the "
        "deployment does not configure (configured: CeleryExecutor, KubernetesExecutor); "
        "Airflow rejects the whole DAG at parse time with UnknownExecutorException"
    )
