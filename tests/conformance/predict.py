"""Predict, file by file, which DAG files Airflow's DagBag rejects, and compare with DagBag.

The corpora are real DAG files: the providers' system-test DAGs (``system-tests``, from their
sdists) and Airflow's own example DAGs (``airflow_env.py`` harvests both). Airflow loads each
folder in its cached venv as the DAG processor does (``dump_airflow.py --errors-only``); the
result is cached by corpus content and venv (``<cache>/dagbag/``). dagroute-lint lints the same
folder with an inventory written by ``inventory init --python`` from that very venv, with the
parse-boundary rules selected (``PREDICTING``). Every file then falls in one row:

- *rejected*, by kind of DagBag error: a missing module (``ModuleNotFoundError``, or an
  ``ImportError`` from a namespace package that lacks the module), a name a module lacks, a
  missing optional provider feature, or anything else (a file that needs a connection, a
  variable, the metadata database while it is parsed: nothing a static tool sees);
- *predicted*: a parse-boundary diagnostic on the file; for a missing module, *named* when one
  of them names the module Airflow could not import;
- *false alarm*: a parse-boundary diagnostic on a file that loads.

Run it to print the prediction table (the conformance test ``test_prediction.py`` asserts on
the same numbers)::

    python tests/conformance/predict.py [3.3.2] [2.10.5] [--misses]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from airflow_env import (
    MARKER_NAME,
    ORACLES,
    AirflowEnv,
    airflow_home,
    cache_root,
    ensure_airflow_venv,
    ensure_example_corpora,
    ensure_system_tests,
)
from harness import REPO_ROOT, HarnessError, _clean_env

HERE = Path(__file__).resolve().parent
DUMP_SCRIPT = HERE / "dump_airflow.py"

# The rules whose diagnostic says the file fails to load on the DAG processor: the DRL0 family
# (by prefix) and the parse-boundary import rules.
PREDICTING: tuple[str, ...] = ("DRL0", "DRL201", "DRL205", "DRL206")

NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")
# ``from google.cloud import dataplex_v1`` where no distribution installs the module: Python
# says the name cannot be imported from the namespace package.
NO_NAME = re.compile(r"ImportError: cannot import name '([^']+)' from '([^']+)' \(([^)]*)\)")
OPTIONAL_FEATURE = "AirflowOptionalProviderFeatureException"

KINDS = ("missing module", "missing name", "optional provider feature", "other")


def error_kind(error: str) -> tuple[str, str | None]:
    """The kind of a DagBag import error and, for a missing module, the module's dotted name."""
    last = error.strip().splitlines()[-1] if error.strip() else ""
    missing = NO_MODULE.search(last)
    if missing is not None:
        return "missing module", missing.group(1)
    name = NO_NAME.search(last)
    if name is not None:
        if name.group(3) == "unknown location":
            return "missing module", f"{name.group(2)}.{name.group(1)}"
        return "missing name", None
    if OPTIONAL_FEATURE in last:
        return "optional provider feature", None
    return "other", None


def names_module(message: str, module: str) -> bool:
    """Whether a diagnostic names ``module`` or a dotted path below it (``'a.b'``, ``'a.b.c'``)."""
    return re.search("'" + re.escape(module) + "['.]", message) is not None


# --- Airflow's side ------------------------------------------------------------------------------


def _corpus_key(env: AirflowEnv, folder: Path) -> str:
    digest = hashlib.sha256()
    digest.update((env.root / MARKER_NAME).read_bytes())
    digest.update(DUMP_SCRIPT.read_bytes())
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:20]


def dagbag_errors(env: AirflowEnv, name: str, folder: Path) -> dict[str, str]:
    """File (relative to ``folder``) -> DagBag's import error, for the files Airflow rejects.

    Cached under ``<cache>/dagbag/``, keyed by the venv's marker, the dump script and every
    file's content: a changed corpus or venv loads again.
    """
    cached = cache_root() / "dagbag" / f"{name}-{env.version}-{_corpus_key(env, folder)}.json"
    if cached.exists():
        errors: dict[str, str] = json.loads(cached.read_text(encoding="utf-8"))
        return errors
    with tempfile.TemporaryDirectory(prefix="dagroute-predict-") as scratch:
        output = Path(scratch) / "dagbag.json"
        child_env = {**_clean_env(), **airflow_home(Path(scratch) / "home")}
        cmd = [str(env.python), str(DUMP_SCRIPT), str(folder), "--errors-only"]
        completed = subprocess.run(
            [*cmd, "--output", str(output)],
            cwd=scratch,
            env=child_env,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        if completed.returncode != 0 or not output.exists():
            raise HarnessError(
                f"dump_airflow.py (Airflow {env.version}) failed on {folder}:\n"
                f"{completed.stderr[-4000:]}"
            )
        errors = json.loads(output.read_text(encoding="utf-8"))["import_errors"]
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(errors, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return errors


def dag_files(folder: Path, version: str) -> list[str]:
    """The files DagBag imports, relative (its safe-mode heuristic, in any case: "airflow" and
    "dag", or in 3.x "airflow" and "dag" or "asset")."""
    words = (b"dag",) if version.startswith("2.") else (b"dag", b"asset")
    found = []
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        data = path.read_bytes().lower()
        if b"airflow" in data and any(word in data for word in words):
            found.append(path.relative_to(folder).as_posix())
    return found


# --- dagroute-lint's side -------------------------------------------------------------------------


def _linter(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-m", "dagroute_lint", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def write_inventory(env: AirflowEnv, workdir: Path) -> Path:
    """``inventory init --python`` from the oracle venv: the environment Airflow runs in."""
    inventory = workdir / "dagroute.toml"
    args = ["inventory", "init", "--python", str(env.python), "--output", str(inventory), "--force"]
    completed = _linter(args, workdir)
    if completed.returncode != 0:
        raise HarnessError(f"`dagroute-lint {' '.join(args)}` failed:\n{completed.stderr[-4000:]}")
    return inventory


def lint(folder: Path, inventory: Path, workdir: Path) -> dict[str, list[dict[str, Any]]]:
    """File (relative to ``folder``) -> its parse-boundary diagnostics."""
    args = [
        str(folder),
        "--inventory",
        str(inventory),
        "--select",
        ",".join(PREDICTING),
        "--format",
        "json",
        "--no-cache",
        "--exit-zero",
    ]
    completed = _linter(args, workdir)
    try:
        diagnostics = json.loads(completed.stdout)
    except ValueError:
        diagnostics = None
    if completed.returncode != 0 or not isinstance(diagnostics, list):
        raise HarnessError(
            f"`dagroute-lint {' '.join(args)}` gave no JSON (exit {completed.returncode}):\n"
            f"{completed.stderr[-4000:]}"
        )
    found: dict[str, list[dict[str, Any]]] = {}
    for diagnostic in diagnostics:
        path = Path(diagnostic["file"])
        path = path if path.is_absolute() else workdir / path
        relative = path.resolve().relative_to(folder.resolve()).as_posix()
        found.setdefault(relative, []).append(diagnostic)
    return found


# --- the comparison -------------------------------------------------------------------------------


@dataclass
class Row:
    """One kind of DagBag error: files, files predicted, and those named right."""

    files: int = 0
    predicted: int = 0
    named: int = 0


@dataclass
class Prediction:
    """Both sides of one corpus, compared file by file."""

    corpus: str
    version: str
    files: int
    loaded: int
    rows: dict[str, Row] = field(default_factory=lambda: {kind: Row() for kind in KINDS})
    false_alarms: dict[str, list[str]] = field(default_factory=dict)
    # file -> (Airflow's error, our messages) for rejected files we did not predict right.
    misses: dict[str, tuple[str, list[str]]] = field(default_factory=dict)

    def add(self, other: Prediction) -> None:
        self.files += other.files
        self.loaded += other.loaded
        for kind, row in other.rows.items():
            mine = self.rows[kind]
            mine.files += row.files
            mine.predicted += row.predicted
            mine.named += row.named
        self.false_alarms.update({f"{other.corpus}/{k}": v for k, v in other.false_alarms.items()})
        self.misses.update({f"{other.corpus}/{k}": v for k, v in other.misses.items()})


def compare(
    corpus: str,
    version: str,
    files: Iterable[str],
    errors: dict[str, str],
    ours: dict[str, list[dict[str, Any]]],
) -> Prediction:
    """Put every file of the corpus in its row."""
    listed = sorted(set(files) | set(errors))
    result = Prediction(corpus, version, len(listed), len(listed) - len(errors))
    for file in listed:
        messages = [f"{d['code']} line {d['line']}: {d['message']}" for d in ours.get(file, [])]
        error = errors.get(file)
        if error is None:
            if messages:
                result.false_alarms[file] = messages
            continue
        kind, module = error_kind(error)
        row = result.rows[kind]
        row.files += 1
        if messages:
            row.predicted += 1
        named = module is not None and any(names_module(m, module) for m in messages)
        if named:
            row.named += 1
        missed = not named if kind == "missing module" else not messages
        if missed:
            result.misses[file] = (error.strip().splitlines()[-1], messages)
    return result


def corpora(env: AirflowEnv) -> dict[str, Path]:
    """The real DAG folders of one oracle: system tests and example DAGs."""
    found = dict(ensure_example_corpora(env))
    system = ensure_system_tests(env)
    if system is not None:
        found["system-tests"] = system
    return found


def predict(env: AirflowEnv, workdir: Path) -> list[Prediction]:
    """Compare every corpus of ``env``'s oracle; one inventory for all (the venv's)."""
    workdir.mkdir(parents=True, exist_ok=True)
    inventory = write_inventory(env, workdir)
    results = []
    for name, cached in corpora(env).items():
        # Both sides read a copy in ``workdir``: DagBag writes bytecode beside what it imports,
        # and the linter passes over any folder under a ``.venv``, where the cache lives.
        folder = workdir / "corpora" / name
        shutil.copytree(cached, folder, ignore=shutil.ignore_patterns("__pycache__"))
        errors = dagbag_errors(env, name, folder)
        ours = lint(folder, inventory, workdir)
        results.append(compare(name, env.version, dag_files(folder, env.version), errors, ours))
    return results


def total(results: list[Prediction]) -> Prediction:
    combined = Prediction("all", results[0].version if results else "", 0, 0)
    for result in results:
        combined.add(result)
    return combined


def table(results: list[Prediction]) -> str:
    """The prediction table: per corpus, the files and how each kind of rejection was met."""
    lines = [
        "| Airflow | corpus | files | load | false alarms | rejected: kind | files | predicted "
        "| naming the module |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    for result in [*results, total(results)]:
        first = True
        for kind, row in result.rows.items():
            if not row.files and not (first and kind == KINDS[-1]):
                continue
            head = (
                f"| {result.version} | {result.corpus} | {result.files} | {result.loaded} "
                f"| {len(result.false_alarms)} "
                if first
                else "| | | | | "
            )
            named = f"{row.named}" if kind == "missing module" else "-"
            lines.append(f"{head}| {kind} | {row.files} | {row.predicted} | {named} |")
            first = False
        if first:
            lines.append(
                f"| {result.version} | {result.corpus} | {result.files} | {result.loaded} "
                f"| {len(result.false_alarms)} | none | 0 | 0 | - |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="*", default=["3.3.2"])
    parser.add_argument("--misses", action="store_true", help="list the files not predicted")
    args = parser.parse_args(argv)
    for version in args.versions:
        if version not in ORACLES:
            print(f"unknown Airflow version {version!r}; known: {', '.join(ORACLES)}")
            return 2
        env = ensure_airflow_venv(oracle=ORACLES[version])
        with tempfile.TemporaryDirectory(prefix="dagroute-predict-") as scratch:
            results = predict(env, Path(scratch))
        print(table(results))
        combined = total(results)
        for file, messages in sorted(combined.false_alarms.items()):
            print(f"FALSE ALARM {file}: {messages}")
        if args.misses:
            for file, (error, messages) in sorted(combined.misses.items()):
                print(f"MISS {file}: {error}\n    ours: {messages}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
