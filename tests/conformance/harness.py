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
from collections.abc import Iterable
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


def run_airflow_dump(
    env: AirflowEnv, folder: Path, workdir: Path, python_path: tuple[Path, ...] = ()
) -> dict[str, Any]:
    """Airflow's tasks of ``folder``; ``python_path`` goes on the DagBag's PYTHONPATH (the import
    roots besides the DAG folder, as ``tests_common`` for the providers' system tests)."""
    output = workdir / "airflow.json"
    child_env = {**_clean_env(), **airflow_home(workdir / "home")}
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

    def airflow_tasks(self) -> dict[TaskKey, dict[str, Any]]:
        return {(t["file"], t["dag_id"], t["task_id"]): t for t in self.dump["tasks"]}

    def routes_tasks(self) -> dict[TaskKey, dict[str, Any]]:
        result: dict[TaskKey, dict[str, Any]] = {}
        for task in self.routes.get("tasks", []):
            if isinstance(task.get("dag_id"), str) and isinstance(task.get("task_id"), str):
                file = relative_file(task["file"], self.folder, self.workdir)
                result.setdefault((file, task["dag_id"], task["task_id"]), task)
        return result

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
    *,
    inventory: Path | None = None,
    python_path: tuple[Path, ...] = (),
) -> CorpusRun:
    """Dump ``source`` with Airflow (unless ``dump`` is given), then lint it with our routes.

    The inventory is derived from Airflow's values unless ``inventory`` is given (the providers'
    system tests: the one ``inventory init --python`` writes for the venv); ``python_path`` is
    passed to the dump (see ``run_airflow_dump``).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    folder = folder_for(source, env.version, workdir)
    if dump is None:
        dump = run_airflow_dump(env, folder, workdir, python_path)
    deployment = derive_deployment(
        dump,
        airflow_version=inventory_version(env.version),
        executors=EXECUTORS,
        default_queue=DEFAULT_QUEUE,
    )
    if inventory is None:
        inventory = workdir / "dagroute.toml"
        inventory.write_text(deployment.toml(), encoding="utf-8")
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
    for raw in _json_or_fail(completed, lint_args):
        diagnostic = {**raw, "file": relative_file(raw["file"], folder, workdir)}
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
    )
