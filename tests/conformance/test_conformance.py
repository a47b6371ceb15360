"""`dagroute-lint routes` must hold Airflow's own parsed routing values, task by task.

Airflow 3.3.2, in its own cached venv, is the oracle: every expectation comes from
``dump_airflow.py`` loading the same folder. Nothing here is a hand-written expected value; the
only hand-written lists are the allow-lists below, each entry with its reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from airflow_env import AirflowEnv, ensure_airflow_venv, ensure_example_corpora
from routes_compare import FIELDS, TaskKey, UnresolvedKey, compare

pytestmark = pytest.mark.conformance

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
IDIOM_CORPUS = HERE / "corpus"
DUMP_SCRIPT = HERE / "dump_airflow.py"

# [core] executor for Airflow and `executors` for the inventory: every executor name the corpora
# use, so that Airflow's executor validation drops no DAG. The first one is the default.
EXECUTORS: tuple[str, ...] = ("CeleryExecutor", "KubernetesExecutor", "LocalExecutor")
DEFAULT_QUEUE = "default"

CORPORA: tuple[str, ...] = ("idioms", "airflow-core", "providers-standard")

# Fields whose value is decided while the file runs (environment, a call's result, a dict mutated
# after its definition). For these, routes may print `null` + an `unresolved` entry; anywhere
# else an unresolved field fails the test. An exact value is always accepted.
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
            # default_args dict changed by QUARTERLY_ARGS.update(...) after its definition
            ("dynamic_routing.py", "quarterly_close", "queue"),
        }
    ),
}

# Tasks Airflow has that a static reader genuinely cannot enumerate. Reported in the counts.
ALLOWED_MISSING: dict[str, dict[TaskKey, str]] = {}

# Files allowed to fail to import under Airflow (their tasks then exist on neither side for
# Airflow, so they are left out of the comparison). None today.
EXPECTED_IMPORT_ERRORS: dict[str, frozenset[str]] = {}


# --- running the two sides ------------------------------------------------------------------


@pytest.fixture(scope="session")
def airflow_env() -> AirflowEnv:
    return ensure_airflow_venv()


@pytest.fixture(scope="session")
def corpus_folders(airflow_env: AirflowEnv) -> dict[str, Path]:
    return {"idioms": IDIOM_CORPUS, **ensure_example_corpora(airflow_env)}


@pytest.fixture(scope="session")
def airflow_dumps(
    airflow_env: AirflowEnv,
    corpus_folders: dict[str, Path],
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, dict[str, Any]]:
    """Airflow's view of each corpus, computed once per session, on first use."""

    class Dumps(dict):  # type: ignore[type-arg]
        def __missing__(self, corpus: str) -> dict[str, Any]:
            workdir = tmp_path_factory.mktemp(f"airflow-{corpus}")
            self[corpus] = run_airflow_dump(airflow_env, corpus_folders[corpus], workdir)
            return self[corpus]

    return Dumps()


def _clean_env() -> dict[str, str]:
    """This process's environment without anything that would leak into Airflow's."""
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
    return {
        key: value
        for key, value in os.environ.items()
        if key not in drop
        and not key.startswith(("AIRFLOW", "DAGROUTE_DEMO_"))  # the dynamic fixtures' variables
    }


def run_airflow_dump(env: AirflowEnv, folder: Path, workdir: Path) -> dict[str, Any]:
    output = workdir / "airflow.json"
    child_env = _clean_env()
    child_env["AIRFLOW_HOME"] = str(workdir / "airflow-home")
    (workdir / "airflow-home").mkdir()
    cmd = [
        str(env.python),
        str(DUMP_SCRIPT),
        str(folder),
        "--executors",
        ",".join(EXECUTORS),
        "--default-queue",
        DEFAULT_QUEUE,
        "--output",
        str(output),
    ]
    completed = subprocess.run(
        cmd, cwd=workdir, env=child_env, capture_output=True, text=True, timeout=900, check=False
    )
    if completed.returncode != 0 or not output.exists():
        pytest.fail(
            f"dump_airflow.py failed ({completed.returncode}) on {folder}:\n"
            f"{completed.stderr[-4000:]}"
        )
    result: dict[str, Any] = json.loads(output.read_text(encoding="utf-8"))
    return result


INVENTORY_TEMPLATE = """\
# Written by tests/conformance: the deployment Airflow was configured as for the dump.
[deployment]
airflow_version = "3.3"
executors = [{executors}]
default_queue = "{default_queue}"

[[workers]]
name = "celery-default"
executor = "CeleryExecutor"
queues = ["{default_queue}"]
runtime = "base"

[[workers]]
name = "k8s-pods"
executor = "KubernetesExecutor"
runtime = "base"

[[workers]]
name = "local"
executor = "LocalExecutor"
runtime = "base"

[runtimes.base]
python = "3.11"
providers = ["standard", "cncf.kubernetes"]
"""


def write_inventory(path: Path) -> Path:
    path.write_text(
        INVENTORY_TEMPLATE.format(
            executors=", ".join(f'"{name}"' for name in EXECUTORS), default_queue=DEFAULT_QUEUE
        ),
        encoding="utf-8",
    )
    return path


def run_routes(folder: Path, inventory: Path, workdir: Path) -> tuple[dict[str, Any], float]:
    """Run ``python -m dagroute_lint routes`` from the working tree; return its JSON and time."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    cmd = [
        sys.executable,
        "-m",
        "dagroute_lint",
        "routes",
        str(folder),
        "--format",
        "json",
        "--inventory",
        str(inventory),
    ]
    started = time.monotonic()
    completed = subprocess.run(
        cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    seconds = time.monotonic() - started
    try:
        payload = json.loads(completed.stdout)
    except ValueError:
        payload = None
    if completed.returncode not in (0, 1) or not isinstance(payload, dict):
        pytest.fail(
            f"`dagroute-lint routes` did not produce a JSON document (exit {completed.returncode})"
            f"\n$ {' '.join(cmd)}\nstdout: {completed.stdout[-2000:]}\n"
            f"stderr: {completed.stderr[-4000:]}"
        )
    return payload, seconds


# --- tests ----------------------------------------------------------------------------------


def test_idiom_corpus_loads_cleanly_in_airflow(airflow_dumps: dict[str, dict[str, Any]]) -> None:
    """Every fixture file imports and serializes under Airflow, each contributing a DAG."""
    dump = airflow_dumps["idioms"]
    assert dump["airflow_version"] == "3.3.2"
    assert dump["import_errors"] == {}
    assert dump["serialization_errors"] == {}
    dag_files = {dag["file"] for dag in dump["dags"]}
    fixture_files = {
        path.relative_to(IDIOM_CORPUS).as_posix()
        for path in IDIOM_CORPUS.glob("*.py")  # common/ holds no DAGs
    }
    assert dag_files == fixture_files
    assert all(dag["task_count"] > 0 for dag in dump["dags"])


def test_allow_lists_name_real_tasks(airflow_dumps: dict[str, dict[str, Any]]) -> None:
    """A stale allow-list entry would silently widen what the suite accepts."""
    for corpus, keys in ALLOWED_UNRESOLVED.items():
        tasks = {(t["file"], t["task_id"]) for t in airflow_dumps[corpus]["tasks"]}
        for file, task_id, field in keys:
            assert (file, task_id) in tasks, (corpus, file, task_id)
            assert field in FIELDS, field
    for corpus, missing in ALLOWED_MISSING.items():
        tasks_by_key = {
            (t["file"], t["dag_id"], t["task_id"]) for t in airflow_dumps[corpus]["tasks"]
        }
        assert set(missing) <= tasks_by_key, sorted(set(missing) - tasks_by_key)


@pytest.mark.parametrize("corpus", CORPORA)
def test_routes_match_airflow(
    corpus: str,
    corpus_folders: dict[str, Path],
    airflow_dumps: dict[str, dict[str, Any]],
    tmp_path: Path,
    conformance_reports: Any,  # conftest.ReportSink
) -> None:
    folder = corpus_folders[corpus]
    dump = airflow_dumps[corpus]
    import_errors = set(dump["import_errors"])
    expected_errors = EXPECTED_IMPORT_ERRORS.get(corpus, frozenset())
    assert import_errors == expected_errors, json.dumps(dump["import_errors"], indent=2)[:4000]

    routes, routes_seconds = run_routes(
        folder, write_inventory(tmp_path / "dagroute.toml"), tmp_path
    )
    # Files Airflow could not import offer no oracle; leave their tasks out on both sides.
    if expected_errors:
        routes = {
            **routes,
            "tasks": [t for t in routes.get("tasks", []) if t.get("file") not in expected_errors],
        }
    report = compare(
        corpus,
        dump,
        routes,
        folder=folder,
        routes_cwd=tmp_path,
        allowed_unresolved=ALLOWED_UNRESOLVED.get(corpus, frozenset()),
        allowed_missing=ALLOWED_MISSING.get(corpus),
    )
    text = report.render()
    text += (
        f"\n  airflow: {len(dump['dags'])} dags, {dump['seconds']} s to load; "
        f"routes: {routes_seconds:.2f} s"
    )
    if dump["serialization_errors"]:
        text += f"\n  note: {len(dump['serialization_errors'])} DAG(s) fail Airflow serialization"
        text += " here (unregistered example plugins); their parsed values are still compared"
    entry = {
        **report.to_dict(),
        "text": text,
        "folder": str(folder),
        "airflow": {
            "dags": len(dump["dags"]),
            "tasks": len(dump["tasks"]),
            "load_seconds": dump["seconds"],
            "import_errors": dump["import_errors"],
            "serialization_errors": dump["serialization_errors"],
        },
        "routes_seconds": round(routes_seconds, 2),
    }
    conformance_reports.add(entry)
    print(text)
    assert report.ok, text
