"""Recall on the providers' system-test DAGs, each provider linted as its own project.

Airflow's CI runs a provider's system tests with the provider's ``tests/`` folder on ``sys.path``
(the DAGs import ``system.<provider>...``) and Airflow's test helpers, ``tests_common``, importable.
Here each sdist of ``SYSTEM_TEST_SDISTS`` is one project laid out the same way:

    <workdir>/<provider>/tests/system/<provider>/...     the DAG folder DagBag loads
    <workdir>/<provider>/devel-common/src/tests_common/  ``ensure_tests_common``'s copy
    <workdir>/<provider>/pyproject.toml                  dags: tests; roots: devel-common/src

DagBag loads ``tests/`` in the system-tests oracle (``AIRFLOW_3_SYSTEM_TESTS``, with
``devel-common/src`` on its PYTHONPATH), and dagroute-lint lints it with the same import roots
and the inventory ``inventory init --python`` writes for that venv. The tasks are compared as
``recall.py`` compares a corpus; the files DagBag rejects (a provider the oracle lacks, a helper
of a later ``tests_common``) are counted, and left out on both sides when they gave no DAG.
*Recall* is the share of Airflow's tasks routes reports (every category but the two missing
ones).

    python tests/conformance/system_recall.py [--providers amazon,http] [--misses]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from airflow_env import (  # noqa: E402
    AIRFLOW_3_SYSTEM_TESTS,
    AirflowEnv,
    ensure_airflow_venv,
    ensure_system_test_projects,
    ensure_tests_common,
)
from harness import environment_table, run_corpus  # noqa: E402
from predict import write_inventory  # noqa: E402
from recall import COLUMNS, per_file  # noqa: E402
from routes_compare import CorpusReport, compare  # noqa: E402

TESTS_COMMON_ROOT = Path("devel-common") / "src"
PYPROJECT = '[tool.dagroute-lint]\ndags = ["tests"]\nroots = ["devel-common/src"]\n'
SEEN = ("exact", "candidates", "unresolved", "wrong", "wrong operator")
# The environment both sides are given, stated in the inventory as a deployment states its own:
# databricks' workflow group id is ``f"test_workflow_{USER}_{GROUP_ID}"``, read with
# ``os.environ.get("USER")`` (set in Airflow's CI shell, not in the oracle's clean environment)
# and ``os.getenv("DATABRICKS_GROUP_ID", "1234")`` (its default, stated). Pinned, so that the
# ids do not depend on the machine the suite runs on; unstated, they are unknown to routes.
ENVIRONMENT = {"USER": "airflow", "DATABRICKS_GROUP_ID": "1234"}


@dataclass
class ProviderRecall:
    """One provider's system tests: the per-category counts, DagBag's rejections, the report."""

    provider: str
    counts: dict[str, int]
    rejected: dict[str, str]
    report: CorpusReport
    announcements: dict[str, list[str]]

    @property
    def recall(self) -> float:
        seen = sum(self.counts[column] for column in SEEN)
        return seen / self.counts["tasks"] if self.counts["tasks"] else 1.0


def _project(provider: str, tests_common: Path, workdir: Path) -> Path:
    """The provider's project folder, without its DAG folder (``run_corpus`` copies it in)."""
    project = workdir / provider
    project.mkdir(parents=True)
    shutil.copytree(
        tests_common,
        project / TESTS_COMMON_ROOT,
        ignore=shutil.ignore_patterns(".extracted", "__pycache__"),
    )
    (project / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return project


def measure(
    env: AirflowEnv, workdir: Path, providers: Iterable[str] | None = None
) -> list[ProviderRecall]:
    """Load and lint each provider's system tests (all, or those named) in ``workdir``."""
    projects = ensure_system_test_projects(env.python)
    tests_common = ensure_tests_common(env.python)
    workdir.mkdir(parents=True, exist_ok=True)
    inventory = write_inventory(env, workdir)
    with inventory.open("a", encoding="utf-8") as stated:
        stated.write(environment_table(ENVIRONMENT))
    wanted = set(providers) if providers is not None else set(projects)
    results = []
    for provider, tests in sorted(projects.items()):
        if provider not in wanted:
            continue
        project = _project(provider, tests_common, workdir)
        run = run_corpus(
            provider,
            env,
            tests,
            project,
            inventory=inventory,
            python_path=(project / TESTS_COMMON_ROOT,),
            environment=ENVIRONMENT,
        )
        rejected = {
            file: error.strip().splitlines()[-1] if error.strip() else ""
            for file, error in run.dump.get("import_errors", {}).items()
        }
        # A file DagBag reports an error for may still have given it DAGs (a duplicate DAG id
        # is reported on the file that imports the other DAG's module): only the files of which
        # Airflow holds no task are left out on routes' side.
        built = {task["file"] for task in run.dump["tasks"]}
        run.without_files(file for file in rejected if file not in built)
        report = compare(
            provider,
            run.dump,
            run.routes,
            folder=run.folder,
            routes_cwd=run.workdir,
            announcements=run.announcements,
        )
        counts = dict.fromkeys(COLUMNS, 0)
        for row in per_file(report, run.dump["tasks"]).values():
            for column in COLUMNS:
                counts[column] += row[column]
        results.append(ProviderRecall(provider, counts, rejected, report, run.announcements or {}))
    return results


def table(results: list[ProviderRecall]) -> str:
    """One row per provider and a total: DagBag's files, its rejections, then the categories."""
    lines = [
        "| provider | files rejected by DagBag | " + " | ".join(COLUMNS) + " | recall |",
        "|---|---:|" + "---:|" * (len(COLUMNS) + 1),
    ]
    totals = dict.fromkeys(COLUMNS, 0)
    rejected = 0
    for result in results:
        cells = " | ".join(str(result.counts[column]) for column in COLUMNS)
        lines.append(
            f"| {result.provider} | {len(result.rejected)} | {cells} | {result.recall:.1%} |"
        )
        rejected += len(result.rejected)
        for column in COLUMNS:
            totals[column] += result.counts[column]
    seen = sum(totals[column] for column in SEEN)
    share = seen / totals["tasks"] if totals["tasks"] else 1.0
    cells = " | ".join(f"**{totals[column]}**" for column in COLUMNS)
    lines.append(f"| **total** | **{rejected}** | {cells} | **{share:.1%}** |")
    return "\n".join(lines)


def total_recall(results: list[ProviderRecall]) -> float:
    tasks = sum(result.counts["tasks"] for result in results)
    seen = sum(result.counts[column] for result in results for column in SEEN)
    return seen / tasks if tasks else 1.0


def misses(results: list[ProviderRecall]) -> dict[str, dict[str, int]]:
    """Per provider and file: tasks missing (announced or not), wrong and unresolved, counted."""
    found: dict[str, dict[str, int]] = {}
    for result in results:
        report = result.report
        kinds = {
            "missing": report.missing,
            "missing announced": report.missing_announced,
            "wrong": report.wrong,
            "unresolved": report.unresolved + report.unexpected_unresolved,
        }
        for kind, entries in kinds.items():
            tasks = {(e["file"], e["dag_id"], e["task_id"]) for e in entries}
            for file, _, _ in tasks:
                key = f"{result.provider}: {kind}: system/{file.removeprefix('system/')}"
                found.setdefault(key, {"tasks": 0})["tasks"] += 1
    return dict(sorted(found.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--providers", help="comma-separated providers (default: all)")
    parser.add_argument("--misses", action="store_true", help="list the files with misses")
    parser.add_argument("--json", type=Path, help="also write the reports' entries here")
    args = parser.parse_args(argv)
    env = ensure_airflow_venv(oracle=AIRFLOW_3_SYSTEM_TESTS)
    providers = args.providers.split(",") if args.providers else None
    with tempfile.TemporaryDirectory(prefix="dagroute-system-recall-") as scratch:
        results = measure(env, Path(scratch), providers)
    print(table(results))
    if args.misses:
        for key, count in misses(results).items():
            print(f"{key}: {count['tasks']} tasks")
        lines = sum(len(found) for r in results for found in r.announcements.values())
        files = sum(len(r.announcements) for r in results)
        print(f"DRL106 lines: {lines} in {files} files")
    if args.json:
        entries = {
            r.provider: {
                "rejected": r.rejected,
                "wrong": r.report.wrong,
                "missing": r.report.missing,
                "missing_announced": r.report.missing_announced,
                "unresolved": r.report.unresolved + r.report.unexpected_unresolved,
                "extra": r.report.extra,
                "drl106": r.announcements,
            }
            for r in results
        }
        args.json.write_text(json.dumps(entries, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
