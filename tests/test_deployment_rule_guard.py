"""A deployment rule's own guard: it yields nothing for a file that did not parse, whoever calls it.

The runner asks ``runs_on`` first; ``DeploymentRule.diagnostics`` keeps the same promise for any
other caller (a front end or a plugin driving rules itself), so its check never sees a file
without a syntax tree's model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import Position
from dagroute_lint.pipeline.analysis import analyse
from dagroute_lint.rules import DeploymentRule
from dagroute_lint.rules.base import DeploymentContext
from tests.helpers import CELERY_K8S, write_repo


def _every_file(context: DeploymentContext) -> Iterator[Diagnostic]:
    yield context.report(Position(1, 1), f"checked with {len(context.inventory.workers)} workers")


EVERY_FILE = DeploymentRule(
    code="ABC900", name="every-file", summary="s", boundary="b", check=_every_file
)


def test_a_deployment_rule_checks_files_that_parsed_and_nothing_else(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "dagroute.toml": CELERY_K8S,
            "dags/broken.py": "from airflow.sdk import DAG\nwith DAG('d'\n",
            "dags/fine.py": "from airflow.sdk import DAG\nwith DAG('d'):\n    pass\n",
        },
    )
    assert _reports(tmp_path, with_inventory=True) == {
        "broken.py": [],
        "fine.py": [(1, 1, "ABC900", "checked with 2 workers")],
    }
    assert _reports(tmp_path, with_inventory=False) == {"broken.py": [], "fine.py": []}


def _reports(root: Path, *, with_inventory: bool) -> dict[str, list[tuple[int, int, str, str]]]:
    """What the rule yields for each file of ``root/dags``, called directly, not by the runner."""
    inventory = load_inventory(root / "dagroute.toml") if with_inventory else None
    repository = analyse([str(root / "dags")], Settings(root=root), inventory).repository
    return {
        Path(file.source.display).name: [
            (d.line, d.column, d.code, d.message) for d in EVERY_FILE.diagnostics(file, repository)
        ]
        for file in repository.files
    }
