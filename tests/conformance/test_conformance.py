"""`dagroute-lint routes` must hold Airflow's own parsed routing values, task by task.

Airflow, in its own cached venvs (3.3.2 and 2.10.5), is the oracle: every expectation comes from
``dump_airflow.py`` loading the same folder. Nothing here is a hand-written expected value; the
only hand-written list is the allow-list of genuinely dynamic values below, each entry with its
reason, and each checked to be still unresolved.

Three tests per corpus and version, so that a failure says what kind it is:

- ``test_routes_match_airflow``: every value of every task both sides have (wrong, unresolved
  off the allow-list, stale allow-list entries, extra and duplicate tasks);
- ``test_missing_tasks_are_announced``: every task Airflow builds is in routes, or a DRL106
  diagnostic in its file says tasks may be missing there;

wrong values never pass; what the evaluator does not know yet (static values left unresolved,
tasks not seen or seen without their id) is listed exactly in ``open_gaps.json``
(``open_gaps.py``): a new gap fails, and so does a listed gap once it is closed.
- ``test_verdicts_follow_airflow``: DRL101-DRL103 and DRL301-DRL302 are what Airflow's values
  imply for the inventory derived from them (``verdicts.py``);
- ``test_no_dag_file_is_silent``: every file in which DagBag builds a DAG has a DAG in routes or
  the DRL106 saying that no DAG is found there, never both.

``-m legacy_corpus`` runs only the corpora the suite had before it was made strict (idioms,
airflow-core, providers-standard, against 3.3.2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import open_gaps
import pytest
from airflow_env import ORACLES, AirflowEnv, ensure_airflow_venv, ensure_example_corpora
from harness import CorpusRun, HarnessError, run_corpus
from open_gaps import gaps
from routes_compare import FIELDS, CorpusReport, UnresolvedKey, compare
from verdicts import compare_diagnostics

pytestmark = pytest.mark.conformance

HERE = Path(__file__).resolve().parent
BOTH = ("3.3.2", "2.10.5")


@dataclass(frozen=True)
class Corpus:
    """A DAG folder and the Airflow versions it is valid in.

    ``folder`` is committed here, or ``None`` for the example DAGs mined from a version's wheels.
    Files inside may narrow their versions with ``# conformance-versions:`` (harness.py).
    ``local_settings``: the ``airflow_local_settings.py`` of the deployment, whose cluster
    policies Airflow runs on the corpus (harness.py puts it in Airflow's config folder).
    """

    name: str
    versions: tuple[str, ...]
    folder: Path | None = None
    legacy: bool = False
    local_settings: Path | None = None


CORPORA: tuple[Corpus, ...] = (
    # Written against airflow.sdk, so Airflow 3 only.
    Corpus("idioms", ("3.3.2",), HERE / "corpus", legacy=True),
    Corpus("airflow-core", ("3.3.2",), legacy=True),
    Corpus("providers-standard", ("3.3.2",), legacy=True),
    Corpus("airflow-2-examples", ("2.10.5",)),
    # Airflow 2 spellings, which 3.3.2 still accepts: valid in both.
    Corpus("idioms2", BOTH, HERE / "corpora" / "idioms2"),
    Corpus("realistic", BOTH, HERE / "corpora" / "realistic"),
    # DAGs under a deployment's cluster policies: its config/airflow_local_settings.py.
    Corpus(
        "policies",
        BOTH,
        HERE / "corpora" / "policies" / "dags",
        local_settings=HERE / "corpora" / "policies" / "config" / "airflow_local_settings.py",
    ),
)
COMMITTED = tuple(c for c in CORPORA if c.folder is not None)


def _params(corpora: tuple[Corpus, ...]) -> list[Any]:
    return [
        pytest.param(
            corpus,
            version,
            id=f"{corpus.name}-{version}",
            marks=[pytest.mark.legacy_corpus] if corpus.legacy else [],
        )
        for corpus in corpora
        for version in corpus.versions
    ]


# Fields whose value is decided while the file runs (environment, a call's result). For these,
# routes may print `null` + an `unresolved` entry; anywhere else an unresolved field fails the
# test, and an entry routes no longer leaves unresolved fails too (stale). An exact value is
# always accepted only when the entry is gone.
ALLOWED_UNRESOLVED: dict[str, frozenset[UnresolvedKey]] = {
    "idioms": frozenset(
        {
            # default_args={"queue": os.environ.get(...)} reaches every task that sets no queue
            ("dynamic_routing.py", "inherits_env", "queue"),
            ("dynamic_routing.py", "env_executor", "queue"),
            # queue=os.getenv(...)
            ("dynamic_routing.py", "env_queue", "queue"),
            # pool=os.environ.get(...), pool_slots=int(os.getenv(...))
            ("dynamic_routing.py", "env_pool", "pool"),
            ("dynamic_routing.py", "env_pool", "pool_slots"),
            # queue=pick_queue("large"): a function's result
            ("dynamic_routing.py", "called", "queue"),
            # @task(executor=os.getenv(...))
            ("dynamic_routing.py", "env_executor", "executor"),
        }
    ),
    # idioms2's candidate_literals.py and candidate_branches.py need no entry: routes gives
    # their values as candidates (which must hold Airflow's), and an entry would be stale.
}

# Files allowed to fail to import under Airflow, per corpus and version (their tasks then exist on
# neither side, so they are left out of the comparison), each with the reason.
_NEEDS_DB = "queries the metadata database while parsing; the dump runs without one"
EXPECTED_IMPORT_ERRORS: dict[tuple[str, str], dict[str, str]] = {
    ("airflow-2-examples", "2.10.5"): {
        "example_dataset_alias.py": _NEEDS_DB,
        "example_dataset_alias_with_no_taskflow.py": _NEEDS_DB,
        "example_subdag_operator.py": _NEEDS_DB,
        "tutorial_objectstorage.py": "needs the s3fs filesystem for ObjectStoragePath('s3://...')",
    },
}


# --- running the two sides ------------------------------------------------------------------


@pytest.fixture(scope="session")
def airflow_envs() -> dict[str, AirflowEnv]:
    """The oracle venvs, built on first use (each once per machine)."""

    class Envs(dict):  # type: ignore[type-arg]
        def __missing__(self, version: str) -> AirflowEnv:
            self[version] = ensure_airflow_venv(oracle=ORACLES[version])
            return self[version]

    return Envs()


@pytest.fixture(scope="session")
def corpus_runs(
    airflow_envs: dict[str, AirflowEnv], tmp_path_factory: pytest.TempPathFactory
) -> dict[tuple[str, str], CorpusRun]:
    """Both sides of each (corpus, version), computed once per session, on first use."""
    by_name = {corpus.name: corpus for corpus in CORPORA}

    class Runs(dict):  # type: ignore[type-arg]
        def __missing__(self, key: tuple[str, str]) -> CorpusRun:
            name, version = key
            env = airflow_envs[version]
            folder = by_name[name].folder or ensure_example_corpora(env)[name]
            workdir = tmp_path_factory.mktemp(f"{name}-{version}")
            try:
                run = run_corpus(
                    name, env, folder, workdir, local_settings=by_name[name].local_settings
                )
            except HarnessError as exc:
                pytest.fail(str(exc))
            expected_errors = EXPECTED_IMPORT_ERRORS.get(key, {})
            if expected_errors:
                run.without_files(expected_errors)
            self[key] = run
            return run

    return Runs()


def _report(run: CorpusRun) -> CorpusReport:
    return compare(
        f"{run.name} @ Airflow {run.version}",
        run.dump,
        run.routes,
        folder=run.folder,
        routes_cwd=run.workdir,
        allowed_unresolved=ALLOWED_UNRESOLVED.get(run.name, frozenset()),
        announcements=run.announcements,
    )


# --- tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("corpus", "version"), _params(COMMITTED))
def test_committed_corpus_loads_cleanly_in_airflow(
    corpus: Corpus, version: str, corpus_runs: dict[tuple[str, str], CorpusRun]
) -> None:
    """Every DAG file imports and serializes under Airflow, each contributing a DAG."""
    run = corpus_runs[(corpus.name, version)]
    dump = run.dump
    assert dump["airflow_version"] == version
    assert dump["import_errors"] == {}
    assert dump["serialization_errors"] == {}
    dag_files = {dag["file"] for dag in dump["dags"]}
    fixture_files = {
        path.relative_to(run.folder).as_posix()
        for path in run.folder.glob("*.py")  # common/ and plugins/ hold no DAGs
    }
    assert dag_files == fixture_files
    assert all(dag["task_count"] > 0 for dag in dump["dags"])


def test_allow_lists_name_real_tasks(corpus_runs: dict[tuple[str, str], CorpusRun]) -> None:
    """An entry for a task Airflow does not build would silently widen what the suite accepts."""
    versions = {corpus.name: corpus.versions for corpus in CORPORA}
    for corpus, keys in ALLOWED_UNRESOLVED.items():
        for version in versions[corpus]:
            tasks = {
                (t["file"], t["task_id"]) for t in corpus_runs[(corpus, version)].dump["tasks"]
            }
            for file, task_id, field in keys:
                assert (file, task_id) in tasks, (corpus, version, file, task_id)
                assert field in FIELDS, field
    for (corpus, version), files in EXPECTED_IMPORT_ERRORS.items():
        assert set(files) == set(corpus_runs[(corpus, version)].dump["import_errors"]), corpus


@pytest.mark.parametrize(("corpus", "version"), _params(CORPORA))
def test_routes_match_airflow(
    corpus: Corpus,
    version: str,
    corpus_runs: dict[tuple[str, str], CorpusRun],
    conformance_reports: Any,  # conftest.ReportSink
) -> None:
    run = corpus_runs[(corpus.name, version)]
    expected_errors = EXPECTED_IMPORT_ERRORS.get((corpus.name, version), {})
    assert set(run.dump["import_errors"]) == set(expected_errors), json.dumps(
        run.dump["import_errors"], indent=2
    )[:4000]
    report = _report(run)
    text = report.render()
    text += (
        f"\n  airflow: {len(run.dump['dags'])} dags, {run.dump['seconds']} s to load; "
        f"routes: {run.routes_seconds:.2f} s"
    )
    if run.unmodelled_problem:
        text += f"\n  note: {run.unmodelled_problem}"
    if run.dump["serialization_errors"]:
        text += f"\n  note: {len(run.dump['serialization_errors'])} DAG(s) fail Airflow "
        text += "serialization here (unregistered example plugins); their values are still compared"
    conformance_reports.add(
        {
            **report.to_dict(),
            "text": text,
            "version": version,
            "folder": str(run.folder),
            "airflow": {
                "dags": len(run.dump["dags"]),
                "tasks": len(run.dump["tasks"]),
                "load_seconds": run.dump["seconds"],
                "import_errors": run.dump["import_errors"],
                "serialization_errors": run.dump["serialization_errors"],
            },
            "routes_seconds": round(run.routes_seconds, 2),
        }
    )
    print(text)
    never = report.wrong or report.stale or report.duplicates or report.problems
    assert not never, text
    key = f"{corpus.name}@{version}"
    found = gaps("unresolved", report.unexpected_unresolved) + gaps("extra", report.extra)
    changed = open_gaps.check(f"{key} values", found)
    assert changed is None, changed + "\n\n" + text


@pytest.mark.parametrize(("corpus", "version"), _params(CORPORA))
def test_missing_tasks_are_announced(
    corpus: Corpus, version: str, corpus_runs: dict[tuple[str, str], CorpusRun]
) -> None:
    """No allow-list of missing tasks: a task routes lacks needs DRL106 in its file."""
    run = corpus_runs[(corpus.name, version)]
    report = _report(run)
    lines = [
        f"[{report.corpus}] {len(report.missing)} of {report.airflow_tasks} Airflow tasks "
        f"missing from routes with no DRL106 in their file; "
        f"{len(report.missing_announced)} missing and announced"
    ]
    if run.unmodelled_problem:
        lines.append(f"  {run.unmodelled_problem}")
    by_file: dict[str, list[str]] = {}
    for entry in report.missing:
        by_file.setdefault(entry["file"], []).append(f"{entry['dag_id']}::{entry['task_id']}")
    for file, tasks in sorted(by_file.items()):
        shown = ", ".join(tasks[:8]) + (f", ... {len(tasks) - 8} more" if len(tasks) > 8 else "")
        lines.append(f"  MISSING in {file} ({len(tasks)}): {shown}")
    changed = open_gaps.check(f"{corpus.name}@{version} missing", gaps("missing", report.missing))
    assert changed is None, changed + "\n\n" + "\n".join(lines)


@pytest.mark.parametrize(("corpus", "version"), _params(CORPORA))
def test_no_dag_file_is_silent(
    corpus: Corpus, version: str, corpus_runs: dict[tuple[str, str], CorpusRun]
) -> None:
    """Every file in which DagBag builds a DAG has a DAG in routes, or the DRL106 saying no DAG
    is found there; and that DRL106 never comes for a file where routes has a DAG."""
    run = corpus_runs[(corpus.name, version)]
    assert run.unseen_dag_files() == [], "DagBag builds DAGs here, the linter says nothing"
    assert run.contradicted_no_dag_files() == [], "no DAG said to be found, routes has one"


@pytest.mark.parametrize(("corpus", "version"), _params(CORPORA))
def test_verdicts_follow_airflow(
    corpus: Corpus, version: str, corpus_runs: dict[tuple[str, str], CorpusRun]
) -> None:
    run = corpus_runs[(corpus.name, version)]
    report = compare_diagnostics(
        f"{run.name} @ Airflow {run.version}",
        run.airflow_tasks(),
        run.routes_tasks(),
        run.diagnostics,
        run.deployment,
    )
    print(report.render())
    assert report.ok, report.render()
