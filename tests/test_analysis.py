"""``analyse()``: the repository modelled once, each dispatched task placed once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import Inventory, load_inventory
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.pipeline import runner
from dagroute_lint.pipeline.analysis import analyse
from dagroute_lint.resolve import placement
from dagroute_lint.resolve.placement import Placement
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules import DeploymentContext
from dagroute_lint.rules.dispatch import UNSERVED_QUEUE
from tests.helpers import CELERY_K8S, write_repo

DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG
with DAG("lab"):
    EmptyOperator(task_id="start")
    BashOperator(task_id="build", bash_command="x", queue="reports")
    BashOperator(task_id="ship", bash_command="x", queue="imports", executor="KubernetesExecutor")
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, {"dags/dag.py": DAG, "dagroute.toml": CELERY_K8S})
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def placed_ids(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The task id of every ``place()`` call made while the test runs."""
    calls: list[str | None] = []
    real = placement.place

    def counting(task: ResolvedTask, inventory: Inventory) -> Placement:
        calls.append(task.task_id)
        return real(task, inventory)

    monkeypatch.setattr(placement, "place", counting)
    return calls


def test_each_dispatched_task_is_placed_once(repo: Path, placed_ids: list[str | None]) -> None:
    inventory = load_inventory(repo / "dagroute.toml")
    analysis = analyse(["dags"], Settings(root=repo), inventory)
    repository = analysis.repository
    # The EmptyOperator is completed by the scheduler and sent to no executor.
    assert [task.task_id for task in repository.tasks] == ["start", "build", "ship"]
    assert sorted(placed_ids) == ["build", "ship"]
    where = {task.task_id: [w.name for w in found.workers] for task, found in repository.placed}
    assert where == {"build": [], "ship": ["k8s-pods"]}
    linted = runner.lint(analysis, runner.selected_rules(Settings(root=repo)))
    assert [d.code for d in linted.diagnostics] == ["DRL101", "DRL102"]
    assert sorted(placed_ids) == ["build", "ship"], "rules read the placements, never place again"


def test_without_an_inventory_nothing_is_placed_and_deployment_rules_do_not_run(
    repo: Path, placed_ids: list[str | None]
) -> None:
    def must_not_run(context: DeploymentContext) -> Iterator[Diagnostic]:
        raise AssertionError(f"ran on {context.module.path}")

    watched = replace(UNSERVED_QUEUE, check=must_not_run)
    settings = Settings(root=repo)
    analysis = analyse(["dags"], settings, None)
    repository = analysis.repository
    assert (len(repository.tasks), repository.placed, placed_ids) == (3, [], [])
    assert runner.lint(analysis, [watched]).diagnostics == []
    deployed = analyse(["dags"], settings, load_inventory(repo / "dagroute.toml"))
    with pytest.raises(AssertionError, match=r"ran on dags/dag\.py"):
        runner.lint(deployed, [watched])


def test_routes_starts_from_the_analysis_without_linting(
    repo: Path, placed_ids: list[str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_lint(*args: object) -> None:
        raise AssertionError("routes ran the rules")

    monkeypatch.setattr(runner, "lint", no_lint)
    result = CliRunner().invoke(main, ["routes", "dags", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert [task["queue"] for task in document["tasks"]] == ["default", "reports", "imports"]
    assert document["summary"]["unserved_queues"] == ["reports"]
    assert document["summary"]["unused_worker_queues"] == ["default"]
    assert sorted(placed_ids) == ["build", "ship"]
