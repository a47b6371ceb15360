"""Run both sides on one DAG folder: Airflow's dump in its venv, and dagroute-lint from the tree.

Shared by the corpus tests and the property test. ``run_corpus`` returns everything the
comparisons need: Airflow's tasks, the inventory derived from them, the routes JSON, the lint
diagnostics for the verdict rules, and the DRL106 announcements (or why there are none).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from airflow_env import AirflowEnv, airflow_home
from routes_compare import TaskKey, relative_file
from verdicts import CODES, Deployment, derive_deployment

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
DUMP_SCRIPT = HERE / "dump_airflow.py"

# [core] executor for Airflow and `executors` for the inventory: every executor name the corpora
# use, so that Airflow's executor validation drops no DAG. The first one is the default.
EXECUTORS: tuple[str, ...] = ("CeleryExecutor", "KubernetesExecutor", "LocalExecutor")
DEFAULT_QUEUE = "default"

# A file whose first lines say ``# conformance-versions: 3.3.2`` is valid only in the versions
# listed; for any other version it is left out of the folder both sides read.
VERSIONS_MARK = "# conformance-versions:"

UNMODELLED = "DRL106"
# The item of the DRL106 report on a file the DAG processor imports in which no DAG is found.
NO_DAG_ITEM = "dag"

# A corpus's deployment environment (``[environment]``, beside its DAG files): set for DagBag,
# and the same table written into the inventory, so both sides read the same values.
ENVIRONMENT_FILE = "environment.toml"


class HarnessError(RuntimeError):
    """One side did not produce its document; the message says which command and why."""


def inventory_version(airflow_version: str) -> str:
    """``airflow_version`` for the inventory: major.minor of the oracle."""
    return ".".join(airflow_version.split(".")[:2])


def file_versions(path: Path) -> tuple[str, ...] | None:
    """The versions a corpus file declares itself valid in, or ``None`` (all)."""
    with open(path, encoding="utf-8") as handle:
        for _, line in zip(range(5), handle):
            if line.startswith(VERSIONS_MARK):
                return tuple(v.strip() for v in line[len(VERSIONS_MARK) :].split(",") if v.strip())
    return None


def folder_for(folder: Path, version: str, scratch: Path) -> Path:
    """A copy of ``folder`` in ``scratch``, without the files not valid in ``version``.

    Both sides read the copy: Airflow imports every DAG file, which writes bytecode beside it,
    and nothing of a run may land in the repository's own corpora.
    """
    target = scratch / folder.name
    shutil.copytree(folder, target, ignore=shutil.ignore_patterns("__pycache__"))
    for path in list(target.rglob("*.py")):
        if (versions := file_versions(path)) is not None and version not in versions:
            path.unlink()
    return target


def _clean_env() -> dict[str, str]:
    """This process's environment without anything that would leak into Airflow's."""
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
    return {
        key: value
        for key, value in os.environ.items()
        if key not in drop
        and not key.startswith(("AIRFLOW", "DAGROUTE_DEMO_"))  # the dynamic fixtures' variables
    }


def corpus_environment(folder: Path) -> dict[str, str]:
    """The ``[environment]`` of the corpus's ``environment.toml``; empty when it has none."""
    path = folder / ENVIRONMENT_FILE
    if not path.is_file():
        return {}
    import tomllib  # the suite runs on 3.11+, dump_airflow.py alone keeps to 3.9

    table = tomllib.loads(path.read_text(encoding="utf-8")).get("environment", {})
    return {str(name): str(value) for name, value in table.items()}


def environment_table(environment: dict[str, str]) -> str:
    """``[environment]`` for the inventory: the names the corpus sets (the process has others,
    so it is not complete)."""
    if not environment:
        return ""
    lines = "".join(
        f"{json.dumps(name)} = {json.dumps(value)}\n" for name, value in environment.items()
    )
    return f"\n[environment]\n{lines}"


def run_airflow_dump(
    env: AirflowEnv,
    folder: Path,
    workdir: Path,
    local_settings: Path | None = None,
    python_path: tuple[Path, ...] = (),
    environment: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Airflow's tasks of ``folder``; ``local_settings`` is put where Airflow imports it from,
    ``$AIRFLOW_HOME/config/airflow_local_settings.py``, so its cluster policies run for real;
    ``python_path`` goes on the DagBag's PYTHONPATH (the import roots besides the DAG folder, as
    ``tests_common`` for the providers' system tests); ``environment`` is set in its process
    besides the corpus's ``environment.toml``."""
    output = workdir / "airflow.json"
    child_env = {**_clean_env(), **airflow_home(workdir / "home")}
    if local_settings is not None:
        config = Path(child_env["AIRFLOW_HOME"]) / "config"
        config.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(local_settings, config / "airflow_local_settings.py")
    if python_path:
        child_env["PYTHONPATH"] = os.pathsep.join(str(path) for path in python_path)
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
    for name, value in {**corpus_environment(folder), **(environment or {})}.items():
        cmd += ["--environment", f"{name}={value}"]
    completed = subprocess.run(
        cmd, cwd=workdir, env=child_env, capture_output=True, text=True, timeout=900, check=False
    )
    if completed.returncode != 0 or not output.exists():
        raise HarnessError(
            f"dump_airflow.py (Airflow {env.version}) failed ({completed.returncode}) on "
            f"{folder}:\n{completed.stderr[-4000:]}"
        )
    result: dict[str, Any] = json.loads(output.read_text(encoding="utf-8"))
    return result


def _linter(args: list[str], workdir: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    started = time.monotonic()
    completed = subprocess.run(
        [sys.executable, "-m", "dagroute_lint", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    return completed, time.monotonic() - started


def _json_or_fail(completed: subprocess.CompletedProcess[str], args: list[str]) -> Any:
    try:
        payload = json.loads(completed.stdout)
    except ValueError:
        payload = None
    if completed.returncode not in (0, 1) or payload is None:
        raise HarnessError(
            f"`dagroute-lint {' '.join(args)}` gave no JSON document (exit {completed.returncode})"
            f"\nstdout: {completed.stdout[-2000:]}\nstderr: {completed.stderr[-4000:]}"
        )
    return payload


@dataclass
class CorpusRun:
    """Both sides of one corpus under one Airflow version."""

    name: str
    version: str
    folder: Path
    workdir: Path
    dump: dict[str, Any]
    deployment: Deployment
    routes: dict[str, Any]
    routes_seconds: float
    diagnostics: list[dict[str, Any]]
    # file (relative to the folder) -> DRL106 messages; None when the rule does not exist.
    announcements: dict[str, list[str]] | None
    unmodelled_problem: str | None
    # Files (relative to the folder) DRL106 says the DAG processor imports with no DAG found.
    no_dag_files: frozenset[str] = frozenset()

    def airflow_tasks(self) -> dict[TaskKey, dict[str, Any]]:
        return {(t["file"], t["dag_id"], t["task_id"]): t for t in self.dump["tasks"]}

    def routes_tasks(self) -> dict[TaskKey, dict[str, Any]]:
        result: dict[TaskKey, dict[str, Any]] = {}
        for task in self.routes.get("tasks", []):
            if isinstance(task.get("dag_id"), str) and isinstance(task.get("task_id"), str):
                file = relative_file(task["file"], self.folder, self.workdir)
                result.setdefault((file, task["dag_id"], task["task_id"]), task)
        return result

    def unseen_dag_files(self) -> list[str]:
        """Files in which Airflow builds a DAG with tasks, of which routes shows no task and
        for which no DRL106 says that no DAG is found: a DAG file the linter is silent about.
        A file whose DAGs all have no task is left out (routes lists tasks, not DAGs)."""
        with_tasks = {dag["file"] for dag in self.dump["dags"] if dag["task_count"] > 0}
        return sorted(with_tasks - self._routes_files() - self.no_dag_files)

    def contradicted_no_dag_files(self) -> list[str]:
        """Files DRL106 says hold no DAG found, where routes shows tasks."""
        return sorted(self.no_dag_files & self._routes_files())

    def _routes_files(self) -> set[str]:
        """The files routes shows a task of (its DAG's id known or not)."""
        tasks = self.routes.get("tasks", [])
        return {relative_file(task["file"], self.folder, self.workdir) for task in tasks}

    def without_files(self, files: Iterable[str]) -> None:
        """Leave ``files`` out on the routes side (Airflow could not import them)."""
        skip = set(files)
        self.routes = {
            **self.routes,
            "tasks": [
                t
                for t in self.routes.get("tasks", [])
                if relative_file(t["file"], self.folder, self.workdir) not in skip
            ],
        }


def run_corpus(
    name: str,
    env: AirflowEnv,
    source: Path,
    workdir: Path,
    dump: dict[str, Any] | None = None,
    local_settings: Path | None = None,
    *,
    inventory: Path | None = None,
    python_path: tuple[Path, ...] = (),
    environment: Mapping[str, str] | None = None,
) -> CorpusRun:
    """Dump ``source`` with Airflow (unless ``dump`` is given), then lint it with our routes.

    ``local_settings``: the deployment's ``airflow_local_settings.py``, which both sides read
    (Airflow from its config folder, the linter through the inventory). The inventory is derived
    from Airflow's values unless ``inventory`` is given (the providers' system tests: the one
    ``inventory init --python`` writes for the venv); ``python_path`` is passed to the dump (see
    ``run_airflow_dump``), and so is ``environment`` (which the given inventory must state).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    folder = folder_for(source, env.version, workdir)
    if dump is None:
        dump = run_airflow_dump(env, folder, workdir, local_settings, python_path, environment)
    deployment = derive_deployment(
        dump,
        airflow_version=inventory_version(env.version),
        executors=EXECUTORS,
        default_queue=DEFAULT_QUEUE,
    )
    if inventory is None:
        inventory = workdir / "dagroute.toml"
        settings = str(local_settings) if local_settings is not None else None
        inventory.write_text(
            deployment.toml(settings) + environment_table(corpus_environment(folder)),
            encoding="utf-8",
        )
    common = [str(folder), "--inventory", str(inventory), "--format", "json", "--no-cache"]

    routes_args = ["routes", *common]
    completed, routes_seconds = _linter(routes_args, workdir)
    routes = _json_or_fail(completed, routes_args)

    # One lint run for the verdict rules and DRL106; without DRL106 (exit 2 naming it), the
    # verdict rules alone, and the report says why no missing task can be announced.
    lint_args = [*common, "--select", ",".join((*CODES, UNMODELLED)), "--exit-zero"]
    completed, _ = _linter(lint_args, workdir)
    announcements: dict[str, list[str]] | None = {}
    problem = None
    if completed.returncode == 2 and UNMODELLED in completed.stderr:
        problem = (
            f"this dagroute-lint has no rule {UNMODELLED} (unmodelled-tasks), so no missing task "
            f"can be announced: {completed.stderr.strip()[-300:]}"
        )
        announcements = None
        lint_args = [*common, "--select", ",".join(CODES), "--exit-zero"]
        completed, _ = _linter(lint_args, workdir)
    diagnostics = []
    no_dag_files = set()
    for raw in _json_or_fail(completed, lint_args):
        diagnostic = {**raw, "file": relative_file(raw["file"], folder, workdir)}
        if diagnostic["code"] == UNMODELLED and diagnostic["facts"]["item"] == NO_DAG_ITEM:
            no_dag_files.add(diagnostic["file"])
        if diagnostic["code"] == UNMODELLED and announcements is not None:
            announcements.setdefault(diagnostic["file"], []).append(
                f"line {diagnostic.get('line')}: {diagnostic.get('message')}"
            )
        else:
            diagnostics.append(diagnostic)
    return CorpusRun(
        name=name,
        version=env.version,
        folder=folder,
        workdir=workdir,
        dump=dump,
        deployment=deployment,
        routes=routes,
        routes_seconds=routes_seconds,
        diagnostics=diagnostics,
        announcements=announcements,
        unmodelled_problem=problem,
        no_dag_files=frozenset(no_dag_files),
    )
