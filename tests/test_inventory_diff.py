"""``inventory diff`` (coverage a deployment change loses or gains) and ``check --against``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dagroute_lint.acceptance.coverage import checked, gaps
from dagroute_lint.acceptance.render import needs_table
from dagroute_lint.cli import main
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import Module, Position, Unmodelled
from dagroute_lint.pipeline.runner import Report
from dagroute_lint.resolve.repository import AnalysedFile, Repository
from dagroute_lint.rules.base import _Bound
from dagroute_lint.sources.discovery import SourceFile
from tests.helpers import write_repo

DAGS = {
    "dags/report.py": """
        from datetime import datetime

        from airflow.providers.postgres.hooks.postgres import PostgresHook
        from airflow.providers.standard.operators.bash import BashOperator
        from airflow.providers.standard.sensors.time_delta import TimeDeltaSensor
        from airflow.sdk import DAG

        with DAG("report", start_date=datetime(2026, 1, 1), schedule=None):
            fetch = BashOperator(task_id="fetch", bash_command="fetch", queue="imports")
            render = BashOperator(
                task_id="render", bash_command="render", queue="reports", pool="reports"
            )
            wait = TimeDeltaSensor(task_id="wait", delta=60, deferrable=True)
            fetch >> render >> wait
        """,
}
INVENTORY = """
[deployment]
airflow_version = "3.0"
executors = ["CeleryExecutor"]
dag_processor = { runtime = "base" }
triggerer = true

[[workers]]
name = "general"
queues = ["default", "imports", "reports"]
runtime = "base"

[runtimes.base]
providers = ["celery", "postgres"]

[pools]
reports = 2
"""


# The DAG processor keeps postgres: the file loads, and the workers' coverage is what changes.
PARSER_KEEPS_POSTGRES = """
[runtimes.parser]
providers = ["celery", "postgres"]
"""


def parser_keeps_postgres(text: str) -> str:
    return (
        text.replace(
            'dag_processor = { runtime = "base" }', 'dag_processor = { runtime = "parser" }'
        )
        + PARSER_KEEPS_POSTGRES
    )


def inventory(folder: Path, name: str, text: str = INVENTORY) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["inventory", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_repo(tmp_path, DAGS)


def lost_and_gained(repo: Path, old: Path, new: Path) -> tuple[int, dict[str, object]]:
    code, out, err = invoke("diff", str(old), str(new), str(repo / "dags"), "--format", "json")
    assert code in (0, 1), err
    return code, json.loads(out)


def summary_of(gaps: object) -> list[tuple[object, ...]]:
    assert isinstance(gaps, list)
    return [(g["code"], g["kind"], g["item"], g["task"]) for g in gaps]


def test_a_queue_removed_from_a_worker_is_lost_coverage(repo: Path) -> None:
    old = inventory(repo, "old.toml")
    new = inventory(repo, "new.toml", text=INVENTORY.replace('"imports", "reports"', '"imports"'))
    code, document = lost_and_gained(repo, old, new)
    assert code == 1
    assert summary_of(document["lost"]) == [("DRL101", "queue", "reports", "report.render")]
    assert document["gained"] == []
    assert document["changes"] == [
        {"what": "worker 'general' queues", "removed": ["reports"], "added": []}
    ]
    # The way back gains it again, and gates nothing.
    code, document = lost_and_gained(repo, new, old)
    assert code == 0
    assert summary_of(document["gained"]) == [("DRL101", "queue", "reports", "report.render")]
    assert document["lost"] == []


def test_each_kind_of_coverage_a_change_can_lose(repo: Path) -> None:
    old = inventory(repo, "old.toml")
    new = inventory(
        repo,
        "new.toml",
        text=INVENTORY.replace('providers = ["celery", "postgres"]', 'providers = ["celery"]')
        .replace("triggerer = true", "triggerer = false")
        .replace("reports = 2", "etl = 2"),
    )
    code, document = lost_and_gained(repo, old, new)
    assert code == 1
    lost = summary_of(document["lost"])
    assert ("DRL301", "pool", "reports", "report.render") in lost
    assert ("DRL303", "triggerer", "a running triggerer", "report.wait") in lost
    # The DAG processor loses postgres too: the file no longer loads (DRL201), so no task of it
    # reaches a worker, and none is reported again for lacking it there.
    assert {row[0] for row in lost if row[1] == "provider"} == {"DRL201"}
    assert {row[2] for row in lost if row[1] == "provider"} == {"apache-airflow-providers-postgres"}


def test_tasks_that_lose_a_provider_on_the_worker(repo: Path) -> None:
    old = inventory(repo, "old.toml", text=parser_keeps_postgres(INVENTORY))
    new = inventory(
        repo,
        "new.toml",
        text=parser_keeps_postgres(
            INVENTORY.replace('providers = ["celery", "postgres"]', 'providers = ["celery"]')
        ),
    )
    code, document = lost_and_gained(repo, old, new)
    assert code == 1
    lost = summary_of(document["lost"])
    # Three tasks, each losing its provider on the worker (the file imports it at module level).
    assert sorted(row[3] for row in lost if row[0] == "DRL202") == [
        "report.fetch", "report.render", "report.wait",
    ]  # fmt: skip
    assert not [row for row in lost if row[0] == "DRL201"]


def test_new_unused_queues_and_no_change(repo: Path) -> None:
    old = inventory(repo, "old.toml")
    new = inventory(repo, "new.toml", text=INVENTORY.replace('"reports"]', '"reports", "spare"]'))
    code, document = lost_and_gained(repo, old, new)
    assert code == 0
    assert document["unused_queues"] == ["spare"]
    code, out, _ = invoke("diff", str(old), str(old), str(repo / "dags"))
    assert code == 0
    assert "none that the checks read" in out
    assert "coverage lost (0)" in out
    assert "checked 3 tasks in 1 files" in out


def test_a_task_that_loses_its_worker_is_not_a_gain_elsewhere(repo: Path) -> None:
    """With no worker for 'reports', the provider check of 'render' stops: masked, not gained."""
    old = inventory(
        repo,
        "old.toml",
        text=parser_keeps_postgres(INVENTORY.replace('["celery", "postgres"]', '["celery"]')),
    )
    new = inventory(
        repo,
        "new.toml",
        text=parser_keeps_postgres(
            INVENTORY.replace('["celery", "postgres"]', '["celery"]').replace(
                '"imports", "reports"', '"imports"'
            )
        ),
    )
    code, document = lost_and_gained(repo, old, new)
    assert code == 1
    assert document["gained"] == []
    assert summary_of(document["masked"]) == [
        ("DRL202", "provider", "apache-airflow-providers-postgres", "report.render")
    ]
    code, out, _ = invoke("diff", str(old), str(new), str(repo / "dags"))
    assert code == 1
    assert "coverage gained (0)" in out
    assert "no longer checked (1): problems gone only because their task lost coverage" in out


def test_a_broken_inventory_exits_2_naming_it(repo: Path) -> None:
    old = inventory(repo, "old.toml")
    new = inventory(repo, "new.toml", text=INVENTORY.replace("queues = [", 'queues = ["", '))
    code, out, err = invoke("diff", str(old), str(new), str(repo / "dags"))
    assert (code, out) == (2, "")
    assert f"{new}: workers[0].queues[0]: queue name must not be empty" in err


def test_check_against_lists_what_the_dags_need(repo: Path) -> None:
    lacking = inventory(
        repo,
        "dagroute.toml",
        text=INVENTORY.replace('"imports", "reports"', '"imports"')
        .replace('["celery", "postgres"]', '["celery"]')
        .replace("triggerer = true", "triggerer = false"),
    )
    code, out, err = invoke("check", str(lacking), "--against", str(repo / "dags"))
    assert code == 1, err
    lines = out.splitlines()
    assert lines[0] == f"{lacking}: ok (1 executors, 1 workers, 1 runtimes)"
    assert re.split(r"\s{2,}", lines[1]) == ["lacks", "item", "rules", "needed by"]
    rows = [re.split(r"\s{2,}", line) for line in lines[2:-1]]
    assert rows == [
        ["queue", "reports", "DRL101", "1: report.render"],
        ["provider", "apache-airflow-providers-postgres", "DRL201",
         f"1: {repo / 'dags/report.py'}"],
        ["triggerer", "a running triggerer", "DRL303", "1: report.wait"],
    ]  # fmt: skip
    assert lines[-1] == "checked 3 tasks in 1 files"
    full = inventory(repo, "full.toml")
    code, out, _ = invoke("check", str(full), "--against", str(repo / "dags"))
    assert code == 0
    assert "nothing lacking" in out


def test_a_scripted_deployment_change_is_gated(tmp_path: Path) -> None:
    """The deployment repository's CI step, as docs/ci.md gives it, on a real git history."""
    git = shutil.which("git")
    assert git is not None
    dags = write_repo(tmp_path / "dags-repo", DAGS)
    deploy = tmp_path / "deploy-repo"
    deploy.mkdir()
    inventory(deploy, "dagroute.toml")

    # The console script of the installed package, beside the interpreter running the tests.
    scripts = Path(sys.executable).parent
    assert (scripts / "dagroute-lint").is_file()
    environment = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}"}

    def run(*command: str, cwd: Path = deploy) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, check=False, env=environment
        )

    assert run(git, "init", "-q").returncode == 0
    for key, value in (("user.email", "ci@example.com"), ("user.name", "ci")):
        run(git, "config", key, value)
    assert run(git, "add", "dagroute.toml").returncode == 0
    assert run(git, "commit", "-qm", "deployment").returncode == 0
    # The change under review: the 'reports' queue leaves the general worker.
    inventory(deploy, "dagroute.toml", text=INVENTORY.replace('"imports", "reports"', '"imports"'))
    run(git, "commit", "-qam", "drop the reports queue")
    step = (
        "git show HEAD~1:dagroute.toml > /tmp/dagroute-base.toml && "
        f"dagroute-lint inventory diff /tmp/dagroute-base.toml dagroute.toml {dags / 'dags'}"
    ).replace("/tmp/dagroute-base.toml", str(tmp_path / "base.toml"))
    script = tmp_path / "acceptance.sh"
    script.write_text(f"set -e\n{step}\n", encoding="utf-8")
    result = run("bash", str(script))
    assert result.returncode == 1, result.stderr
    assert "DRL101 [queue reports] task 'render' in dag 'report'" in result.stdout


def test_what_was_not_checked_is_said(tmp_path: Path) -> None:
    repo = write_repo(
        tmp_path,
        {
            **DAGS,
            "dags/dynamic.py": """
                import os
                from datetime import datetime

                from airflow.providers.standard.operators.bash import BashOperator
                from airflow.sdk import DAG

                from plugins.tables import table_names

                with DAG("dynamic", start_date=datetime(2026, 1, 1), schedule=None):
                    BashOperator(task_id="one", bash_command="x", queue=os.environ["Q"])
                    for name in table_names():
                        BashOperator(task_id=name, bash_command="x")
                """,
        },
    )
    old = inventory(repo, "old.toml")
    code, out, _ = invoke("diff", str(old), str(old), str(repo / "dags"))
    assert code == 0
    last = out.splitlines()[-1]
    # The loop's task is seen once, with its id unknown; both it and 'one' are unproven.
    assert "checked 5 tasks in 2 files" in last
    assert "2 of them take a routing value known only when the file runs" in last


def test_places_where_tasks_may_be_missing_are_counted() -> None:
    """DRL106's places (where the evaluator cannot follow) are counted in every acceptance
    summary, from the repository: even with DRL106 ignored, and so no diagnostic, they show."""
    places = tuple(Unmodelled(Position(line, 1), "tasks may be created here") for line in (3, 7))
    module = Module(path="dags/x.py", module_name="x", unmodelled=places)
    file = AnalysedFile(SourceFile("dags/x.py", "dags/x.py"), module, ())
    repository = Repository((file,), None, 3, lambda name: False)
    report = Report(repository, [])
    counted = checked(report)
    assert (counted.tasks, counted.unmodelled, counted.files) == (0, 2, 1)
    table = needs_table(gaps(report.diagnostics), counted)
    assert table.splitlines()[-1] == (
        "checked 0 tasks in 1 files; in 2 places tasks may exist that were not seen, so not "
        "checked (DRL106)"
    )


def test_inventory_changes_are_listed_by_section(repo: Path) -> None:
    old = inventory(repo, "old.toml")
    new = inventory(
        repo,
        "new.toml",
        text=INVENTORY.replace('name = "general"', 'name = "main"')
        .replace('["celery", "postgres"]', '["celery", "postgres>=6"]')
        .replace(
            'executors = ["CeleryExecutor"]', 'executors = ["CeleryExecutor", "LocalExecutor"]'
        )
        .replace('queues = ["default"', 'executor = "CeleryExecutor"\nqueues = ["default"'),
    )
    code, document = lost_and_gained(repo, old, new)
    assert document["changes"] == [
        {"what": "executors", "removed": [], "added": ["LocalExecutor"]},
        {"what": "workers", "removed": ["general"], "added": ["main"]},
        {
            "what": "runtime 'base' providers",
            "removed": ["apache-airflow-providers-postgres"],
            "added": ["apache-airflow-providers-postgres>=6"],
        },
    ]
    assert code == 0  # the same tasks are served


def test_an_executor_and_a_package_lost(tmp_path: Path) -> None:
    repo = write_repo(
        tmp_path,
        {
            "dags/spark.py": """
                from datetime import datetime

                import pandas
                from airflow.providers.standard.operators.bash import BashOperator
                from airflow.sdk import DAG

                with DAG("spark", start_date=datetime(2026, 1, 1), schedule=None):
                    BashOperator(task_id="run", bash_command="x", executor="KubernetesExecutor")
                """,
        },
    )
    both = """
        [deployment]
        airflow_version = "3.0"
        executors = ["CeleryExecutor", "KubernetesExecutor"]

        [[workers]]
        name = "general"
        executor = "CeleryExecutor"
        runtime = "base"

        [[workers]]
        name = "pods"
        executor = "KubernetesExecutor"
        runtime = "base"

        [runtimes.base]
        providers = []
        packages = ["pandas"]
        """
    old = inventory(repo, "old.toml", text=both)
    new = inventory(
        repo,
        "new.toml",
        text=both.replace('packages = ["pandas"]', "packages = []")
        .replace(', "KubernetesExecutor"]', "]")
        .replace(
            'name = "pods"\n        executor = "KubernetesExecutor"',
            'name = "pods"\n        executor = "CeleryExecutor"',
        ),
    )
    code, document = lost_and_gained(repo, old, new)
    assert code == 1
    lost = summary_of(document["lost"])
    assert ("DRL103", "executor", "KubernetesExecutor", "spark.run") in lost
    code, document = lost_and_gained(
        repo, old, inventory(repo, "no-pandas.toml", text=both.replace('["pandas"]', "[]"))
    )
    assert code == 1
    assert summary_of(document["lost"]) == [("DRL203", "package", "pandas", "spark.run")]


def without_messages(document: object) -> object:
    if isinstance(document, dict):
        return {key: without_messages(value) for key, value in document.items() if key != "message"}
    if isinstance(document, list):
        return [without_messages(value) for value in document]
    return document


def test_reworded_messages_change_nothing_the_acceptance_reports_find(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The acceptance reports read the diagnostics' facts: with every rule's every message
    reworded beyond recognition (no "task '...' in dag '...'", no "queue '...'" left), `check
    --against` prints the same table and `diff` finds the same losses and gains."""
    lacking = inventory(
        repo,
        "lacking.toml",
        text=parser_keeps_postgres(
            INVENTORY.replace('"imports", "reports"', '"imports"')
            .replace('["celery", "postgres"]', '["celery"]')
            .replace("triggerer = true", "triggerer = false")
        ),
    )
    full = inventory(repo, "full.toml", text=parser_keeps_postgres(INVENTORY))
    check = ("check", str(lacking), "--against", str(repo / "dags"), "--no-cache")
    diff = ("diff", str(full), str(lacking), str(repo / "dags"), "--format", "json", "--no-cache")
    table, changes = invoke(*check), invoke(*diff)
    assert table[0] == changes[0] == 1
    assert "report.render" in table[1] and "report.wait" in table[1]

    report = _Bound.report

    def reworded(self: _Bound, position: Position, message: str, **facts: Any) -> Diagnostic:
        return report(self, position, f"reworded: {message[::-1]}", **facts)

    monkeypatch.setattr(_Bound, "report", reworded)
    assert invoke(*check) == table
    code, out, _ = invoke(*diff)
    document = json.loads(out)
    assert code == changes[0]
    assert all(gap["message"].startswith("reworded: ") for gap in document["lost"])
    assert without_messages(document) == without_messages(json.loads(changes[1]))
