"""DRL203 on what a task imports: the caveat of a virtualenv that sees the worker's packages, and
the tasks one module-level import breaks, counted per task by ``inventory check --against``.

A ``@task.virtualenv`` with ``system_site_packages`` (the default) installs its requirements over
the worker's packages, so a distribution whose requirements no shipped table knows may bring the
import from either side: both are named. A module-level import breaks every task of the file
alike; the report is one, and the acceptance table counts each task it covers.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from tests.helpers import lint_source

# The worker's runtime lists a distribution no shipped table knows the requirements of; the DAG
# processor has polars (files importing it load), the worker does not.
INVENTORY = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
dag_processor = { runtime = "parser" }

[[workers]]
name = "celery-general"
queues = ["default"]
runtime = "base"

[runtimes.base]
providers = ["standard"]
packages = ["lab-internal-tools"]

[runtimes.parser]
providers = ["standard"]
packages = ["polars"]
"""

VIRTUALENV = """
from airflow.sdk import DAG, task

with DAG("features", schedule=None):

    @task.virtualenv(requirements=["lab-venv-tools"])
    def score() -> None:
        import humanize

        print(humanize.naturalsize(1))

    score()
"""

MODULE_LEVEL = """
import polars
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("features", schedule=None):
    BashOperator(task_id="fetch", bash_command="fetch.sh")
    BashOperator(task_id="fit", bash_command="fit.sh")

FRAME = polars.DataFrame
"""


def test_a_virtualenv_seeing_the_workers_packages_names_unknowns_of_both() -> None:
    """humanize may come with the venv's own requirement or with the worker's package."""
    (found,) = lint_source(VIRTUALENV, INVENTORY, select=("DRL203",))
    assert found.message == (
        "task 'score' in dag 'features' imports 'humanize' in its virtualenv (line 7), but "
        "requirements= does not list humanize, and worker 'celery-general' (runtime 'base'), "
        "whose packages the venv sees (system_site_packages=True), lacks it; it will fail when "
        "the import runs; the dependencies of 'lab-internal-tools' and 'lab-venv-tools' are not "
        "known (it may come with them)"
    )


def test_one_report_for_a_module_level_import_covers_every_task_it_breaks() -> None:
    (found,) = lint_source(MODULE_LEVEL, INVENTORY, select=("DRL203",))
    assert found.line == 1
    assert found.facts.tasks == (("features", "fetch"), ("features", "fit"))
    assert (found.facts.dag_id, found.facts.task_id) == ("features", None)


def test_check_against_counts_each_task_a_module_level_import_breaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags/features.py").write_text(textwrap.dedent(MODULE_LEVEL).lstrip())
    (tmp_path / "dagroute.toml").write_text(textwrap.dedent(INVENTORY))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["inventory", "check", "dagroute.toml", "--against", "dags", "--no-cache"]
    )
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines() == [
        "dagroute.toml: ok (1 executors, 1 workers, 2 runtimes)",
        "lacks    item    rules   needed by",
        "package  polars  DRL203  2: features.fetch, features.fit",
        "checked 2 tasks in 1 files",
    ]
