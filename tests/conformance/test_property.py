"""Generated DAG programs mixing real-repository idioms: routes must match Airflow on every value.

``generate.py`` writes the programs from a seed (deterministic: the same seed, the same files).
All programs of a run go into one folder, so each Airflow version loads them in one DagBag and
routes reads them in one run. CI runs ``$DAGROUTE_PROPERTY_EXAMPLES`` programs (25 by default)
with seed ``$DAGROUTE_PROPERTY_SEED`` (12); set both for a larger or another run. A failure
names the generated file; reproduce it with
``python tests/conformance/generate.py DIR --count N --seed S``.
"""

from __future__ import annotations

import os
from pathlib import Path

import open_gaps
import pytest
from airflow_env import ORACLES, ensure_airflow_venv
from generate import write_programs
from harness import CorpusRun, HarnessError, run_corpus
from open_gaps import gaps
from routes_compare import compare
from verdicts import compare_diagnostics

pytestmark = pytest.mark.conformance

EXAMPLES = int(os.environ.get("DAGROUTE_PROPERTY_EXAMPLES", "25"))
SEED = int(os.environ.get("DAGROUTE_PROPERTY_SEED", "12"))
VERSIONS = ("3.3.2", "2.10.5")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("generated") / "dags"
    write_programs(folder, EXAMPLES, SEED)
    return folder


@pytest.fixture(scope="module")
def runs(generated: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, CorpusRun]:
    class Runs(dict):  # type: ignore[type-arg]
        def __missing__(self, version: str) -> CorpusRun:
            env = ensure_airflow_venv(oracle=ORACLES[version])
            workdir = tmp_path_factory.mktemp(f"generated-{version}")
            try:
                self[version] = run_corpus("generated", env, generated, workdir)
            except HarnessError as exc:
                pytest.fail(str(exc))
            return self[version]

    return Runs()


def _where() -> str:
    return f"(seed {SEED}, {EXAMPLES} programs: generate.py DIR --count {EXAMPLES} --seed {SEED})"


@pytest.mark.parametrize("version", VERSIONS)
def test_generated_programs_load_in_airflow(version: str, runs: dict[str, CorpusRun]) -> None:
    """The generator writes only valid programs: every file imports and builds its DAGs."""
    dump = runs[version].dump
    assert dump["import_errors"] == {}, dump["import_errors"]
    assert {dag["file"] for dag in dump["dags"]} == {
        f"gen_{index:03d}.py" for index in range(EXAMPLES)
    }


@pytest.mark.parametrize("version", VERSIONS)
def test_generated_programs_match_airflow(version: str, runs: dict[str, CorpusRun]) -> None:
    """Every value of every task, and no task missing unless DRL106 announces its file."""
    run = runs[version]
    report = compare(
        f"generated @ Airflow {version} {_where()}",
        run.dump,
        run.routes,
        folder=run.folder,
        routes_cwd=run.workdir,
        announcements=run.announcements,
    )
    text = report.render()
    if run.unmodelled_problem:
        text += f"\n  note: {run.unmodelled_problem}"
    assert not (report.wrong or report.stale or report.duplicates or report.problems), text
    if (EXAMPLES, SEED) != (25, 12):
        # A larger or another run has no listed gaps: every one is shown.
        assert report.ok, text
        return
    found = (
        gaps("unresolved", report.unexpected_unresolved)
        + gaps("extra", report.extra)
        + gaps("missing", report.missing)
    )
    changed = open_gaps.check(f"generated@{version}", found)
    assert changed is None, changed + "\n\n" + text


@pytest.mark.parametrize("version", VERSIONS)
def test_no_generated_dag_file_is_silent(version: str, runs: dict[str, CorpusRun]) -> None:
    """A DAG in routes, or the DRL106 saying no DAG is found, for every file DagBag builds
    a DAG from; never both."""
    run = runs[version]
    assert run.unseen_dag_files() == [], _where()
    assert run.contradicted_no_dag_files() == [], _where()


@pytest.mark.parametrize("version", VERSIONS)
def test_generated_verdicts_follow_airflow(version: str, runs: dict[str, CorpusRun]) -> None:
    run = runs[version]
    report = compare_diagnostics(
        f"generated @ Airflow {version} {_where()}",
        run.airflow_tasks(),
        run.routes_tasks(),
        run.diagnostics,
        run.deployment,
    )
    assert report.ok, report.render()
