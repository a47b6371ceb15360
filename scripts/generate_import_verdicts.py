"""Write ``catalog/data/import_verdicts.tsv``: does each known Airflow import fail, warn or work.

A path's verdict is what really happens when it is imported in a real Airflow of each supported
version, never what a table says should happen: each module is imported in a fresh child process
(forked from one that has only imported ``airflow``), every ``from module import name`` of it is
executed there with all warnings recorded, and the outcome is classified:

- ``fails:<exception>``: the import raises (``ModuleNotFoundError``, ``ImportError``...);
- ``warns:<category>``: it imports, but Airflow warns that it is deprecated (a
  ``DeprecationWarning``/``FutureWarning`` subclass raised by Airflow code or naming Airflow);
- ``works``: it imports without such a warning;
- ``needs:<provider>`` (``warns:<category>:needs:<provider>`` when it warned first): the import
  failed on a provider package that no venv of that version has, so the verdict is unknown.

The known paths are every module of the Airflow 2.10.5 package with its public names (defined
in its source, re-exported from Airflow, or keys of its lazy/deprecated tables) and its
submodules, every old and new path of ``import_moves.tsv``, and, for a move that names only a
successor module, the old name looked up in that module. Nothing here is run in CI; the output is
shipped. To refresh (each venv is one ``VERSION=PATH``; a later venv of a version decides only
paths an earlier one could not, for want of a provider)::

    python scripts/generate_import_verdicts.py \\
        2.10.5=.venv/dagroute-lint-cache/airflow-2.10.5-venv \\
        3.3.2=.venv/dagroute-lint-cache/airflow-3.3.2-venv \\
        3.3.2=.venv/dagroute-lint-cache/airflow-3.3.2-providers-venv

(the conformance suite's venvs, in its cache inside the test environment; see
``tests/conformance/airflow_env.py``)
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from dagroute_lint.catalog.import_verdicts import (  # noqa: E402
    MODULE,
    VERDICT_COLUMNS,
    VERDICTS_FILE,
)
from dagroute_lint.catalog.providers import import_moves  # noqa: E402

DATA = REPO / "dagroute_lint" / "catalog" / "data"
WALKED = "2.10.5"  # the Airflow 2 release whose package is walked for old paths
# Folders of the Airflow 2 package that are not import paths for DAG code.
SKIPPED = ("airflow.providers", "airflow.migrations", "airflow.example_dags", "airflow._vendor")
# Top-level names that airflow/__init__.py of 2.10.5 serves from ``__getattr__`` (its line
# ``if name.startswith("PY3") and (py_minor := name[3:]) in ("6", ..., "12")``).
GETATTR_NAMES = {"airflow": tuple(f"PY3{minor}" for minor in range(6, 13))}
# Top-level dicts whose string keys are names a module serves lazily.
LAZY_TABLES = (
    "__lazy_imports",
    "__deprecated_classes",
    "_deprecated_imports",
    "__deprecated_imports",
)
TIMEOUT = 120  # seconds one module (and its names) may take in a child

# Run in a version's venv: reads ``[[module, [names...]], ...]`` on stdin, prints one JSON object
# ``{"module": {"-": verdict, name: verdict, ...}}``.
PROBE = r"""
import importlib, json, os, signal, sys, warnings

DEPRECATIONS = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)

def deprecation(caught):
    for w in caught:
        category = w.category
        if not issubclass(category, DEPRECATIONS):
            continue
        if category.__module__.startswith("airflow") or "airflow" in str(w.message):
            return category.__name__
    return None

def missing_provider(error):
    name = getattr(error, "name", None) or ""
    while error is not None and not name:
        error = error.__cause__ or error.__context__
        name = getattr(error, "name", None) or ""
    if name.startswith("airflow.providers."):
        parts = name.split(".")
        return ".".join(parts[2:4]) if parts[2] in ("apache", "microsoft", "common", "cncf") else parts[2]
    return None

def classify(statement):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(statement, {})
        except BaseException as error:
            warned = deprecation(caught)
            provider = missing_provider(error)
            if provider is not None:
                return (f"warns:{warned}:" if warned else "") + f"needs:{provider}"
            return f"fails:{type(error).__name__}"
    warned = deprecation(caught)
    return f"warns:{warned}" if warned else "works"

def child(module, names, write):
    signal.alarm(TIMEOUT)
    own = classify(f"import {module}")
    out = {"-": own}
    for name in names:
        if own.startswith(("fails", "unknown")) or "needs:" in own:
            out[name] = own  # a module that does not import has no names
            continue
        verdict = classify(f"from {module} import {name}")
        # The module's own warning fired once, when it was imported: it holds for every name.
        out[name] = own if verdict == "works" and own != "works" else verdict
    os.write(write, json.dumps(out).encode())

def main():
    import airflow  # noqa: F401  (every child starts from an imported airflow, as DAG files do)
    result = {}
    for module, names in json.load(sys.stdin):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                child(module, names, write)
            finally:
                os._exit(0)
        os.close(write)
        chunks = []
        while chunk := os.read(read, 1 << 16):
            chunks.append(chunk)
        os.close(read)
        os.waitpid(pid, 0)
        try:
            result[module] = json.loads(b"".join(chunks))
        except ValueError:
            result[module] = {"-": "unknown:crashed"}
    print(json.dumps(result))

main()
""".replace("TIMEOUT", str(TIMEOUT))  # noqa: E501


# --- the known paths ----------------------------------------------------------------------------


def site_packages(venv: Path) -> Path:
    found = sorted(venv.glob("lib/python3*/site-packages"))
    if not found:
        raise SystemExit(f"{venv}: no lib/python3*/site-packages")
    return found[0]


def module_files(site: Path) -> Iterator[tuple[str, Path]]:
    """``(dotted module, file)`` for every module of the ``airflow`` package under ``site``."""
    for path in sorted((site / "airflow").rglob("*.py")):
        parts = list(path.relative_to(site).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        if any(module == s or module.startswith(s + ".") for s in SKIPPED):
            continue
        if not all(part.isidentifier() and not part.startswith("_") for part in parts):
            continue
        yield module, path


def public_names(module: str, tree: ast.Module) -> set[str]:
    """Names DAG code may import from the module: defined, re-exported from Airflow, or lazy."""
    names: set[str] = set(GETATTR_NAMES.get(module, ()))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
                    if target.id in LAZY_TABLES and isinstance(node.value, ast.Dict):
                        names |= {
                            k.value
                            for k in node.value.keys
                            if isinstance(k, ast.Constant) and isinstance(k.value, str)
                        }
                    if target.id == "__all__" and isinstance(node.value, (ast.List, ast.Tuple)):
                        names |= {
                            e.value
                            for e in node.value.elts
                            if isinstance(e, ast.Constant) and isinstance(e.value, str)
                        }
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _from_airflow(node.module):
            names |= {a.asname or a.name for a in node.names if a.name != "*"}
    return {n for n in names if n.isidentifier() and not n.startswith("_")}


def _from_airflow(module: str | None) -> bool:
    return module is not None and module.split(".")[0] == "airflow"


def walked_paths(site: Path) -> dict[str, set[str]]:
    """``module -> names`` of the Airflow 2 package, submodules counted as names of packages."""
    paths: dict[str, set[str]] = {}
    for module, path in module_files(site):
        try:
            tree = ast.parse(path.read_bytes())
        except SyntaxError:
            continue
        paths.setdefault(module, set()).update(public_names(module, tree))
        parent, _, leaf = module.rpartition(".")
        if parent:
            paths.setdefault(parent, set()).add(leaf)
    return paths


def table_paths() -> dict[str, set[str]]:
    """Old and new paths of ``import_moves.tsv``, and old names looked up in successor modules."""
    paths: dict[str, set[str]] = {}
    old_names: dict[str, set[str]] = {}
    for move in import_moves():
        old = old_names.setdefault(move.old_module, set())
        if move.old_name and move.old_name != "*":
            old.add(move.old_name)
        if move.new_module is None:
            continue
        new = paths.setdefault(move.new_module, set())
        if move.new_name and move.new_name != "*":
            new.add(move.new_name)
        elif move.old_name and move.old_name != "*":
            new.add(move.old_name)
    # A successor module known for a whole old module: each old name may or may not be there.
    for move in import_moves():
        if move.old_name == "*" and move.new_module is not None:
            paths[move.new_module] |= old_names.get(move.old_module, set())
    for module, names in old_names.items():
        paths.setdefault(module, set()).update(names)
    return paths


def known_paths(walked: dict[str, set[str]]) -> dict[str, set[str]]:
    paths = {module: set(names) for module, names in walked.items()}
    for module, names in table_paths().items():
        paths.setdefault(module, set()).update(names)
    # Every parent package of a known module is imported on the way, so it is known too.
    for module in list(paths):
        parts = module.split(".")
        for size in range(1, len(parts)):
            paths.setdefault(".".join(parts[:size]), set()).add(parts[size])
    return paths


# --- importing ----------------------------------------------------------------------------------


def probe(venv: Path, paths: dict[str, set[str]], cache: Path | None) -> dict[str, dict[str, str]]:
    """Import every path in ``venv``; with ``cache``, reuse the result of the same request."""
    payload = json.dumps([[m, sorted(paths[m])] for m in sorted(paths)])
    digest = hashlib.sha256(f"{venv.resolve()}\n{PROBE}\n{payload}".encode()).hexdigest()[:16]
    cached = cache / f"{digest}.json" if cache is not None else None
    if cached is not None and cached.exists():
        result: dict[str, dict[str, str]] = json.loads(cached.read_text(encoding="utf-8"))
        return result
    print(f"importing {sum(len(n) + 1 for n in paths.values())} paths in {venv}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "AIRFLOW_HOME": home,
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
            "PYTHONWARNINGS": "ignore",
        }
        completed = subprocess.run(
            [str(venv / "bin" / "python"), "-c", PROBE],
            input=payload,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            cwd=home,
        )
    if completed.returncode != 0 or not completed.stdout.strip():
        raise SystemExit(f"{venv}: probe failed\n{completed.stderr[-4000:]}")
    result = json.loads(completed.stdout.splitlines()[-1])
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(result), encoding="utf-8")
    return result


def judge(
    venvs: list[Path], paths: dict[str, set[str]], cache: Path | None
) -> dict[str, dict[str, str]]:
    """One version's verdicts: each later venv is asked only about modules earlier ones could
    not decide (an import that failed on a provider they lack)."""
    verdicts: dict[str, dict[str, str]] = {}
    todo = paths
    for venv in venvs:
        verdicts = merge([verdicts, probe(venv, todo, cache)])
        todo = {
            m: paths[m]
            for m in paths
            if any(undecided(verdicts[m].get(n)) for n in (MODULE, *paths[m]))
        }
        if not todo:
            break
    return verdicts


def undecided(verdict: str | None) -> bool:
    return verdict is None or "needs:" in verdict or verdict.startswith("unknown")


def merge(runs: Iterable[dict[str, dict[str, str]]]) -> dict[str, dict[str, str]]:
    """One verdict per path: the first venv's, unless it lacked a provider another one has."""
    out: dict[str, dict[str, str]] = {}
    for run in runs:
        for module, names in run.items():
            have = out.setdefault(module, {})
            for name, verdict in names.items():
                if undecided(have.get(name)) and not (name in have and undecided(verdict)):
                    have[name] = verdict
    return out


# --- writing ------------------------------------------------------------------------------------


def table_pairs() -> set[tuple[str, str]]:
    """Every ``(module, name)`` of the moves table, old or new: a message or ``--fix`` may name it
    as a replacement, so its verdict is stored even where it equals its module's."""
    return {(module, name) for module, names in table_paths().items() for name in names}


def rows(
    paths: dict[str, set[str]], verdicts: dict[str, dict[str, dict[str, str]]], versions: list[str]
) -> Iterator[tuple[str, ...]]:
    """The module row of each known module; a name row where a name's verdict differs from its
    module's, and for every replacement path (so that "works" is said, not implied)."""
    targets = table_pairs()
    for module in sorted(paths):
        own = tuple(verdicts[v][module][MODULE] for v in versions)
        yield (module, MODULE, *own)
        for name in sorted(paths[module]):
            cells = tuple(verdicts[v][module].get(name, own[i]) for i, v in enumerate(versions))
            if cells != own or (module, name) in targets:
                yield (module, name, *cells)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("venvs", nargs="+", metavar="VERSION=VENV")
    parser.add_argument(
        "--date",
        default=datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
        help="the generation date the header states (default: today, UTC)",
    )
    parser.add_argument("--cache", help="keep each venv's import results here, to rerun cheaply")
    args = parser.parse_args(argv)
    by_version: dict[str, list[Path]] = {}
    for spec in args.venvs:
        version, _, path = spec.partition("=")
        by_version.setdefault(version, []).append(Path(path).expanduser())
    versions = sorted(by_version, key=lambda v: tuple(int(p) for p in v.split(".")))
    if WALKED not in by_version:
        raise SystemExit(f"a {WALKED} venv is needed: its package is walked for the old paths")
    walked = walked_paths(site_packages(by_version[WALKED][0]))
    paths = known_paths(walked)
    cache = Path(args.cache).expanduser() if args.cache else None
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(versions)) as pool:
        jobs = {v: pool.submit(judge, by_version[v], paths, cache) for v in versions}
        verdicts = {v: job.result() for v, job in jobs.items()}
    columns = ("module", "name", *(f"airflow_{v}" for v in versions))
    if columns != VERDICT_COLUMNS:
        raise SystemExit(f"columns {columns} differ from VERDICT_COLUMNS {VERDICT_COLUMNS}")
    out = list(rows(paths, verdicts, versions))
    counts = summary(paths, verdicts, versions)
    venvs = "; ".join(
        f"{v}: " + ", ".join(distributions(p) for p in by_version[v]) for v in versions
    )
    head = [
        "# Whether each known Airflow import path fails, warns or works, found by importing it.",
        "# generated by scripts/generate_import_verdicts.py — do not edit",
        f"# Generated on {args.date}.",
        f"# Imported in: {venvs}",
        f"# Known paths: every module of apache-airflow {WALKED} with its public names and",
        "#   submodules, and every old and new path of import_moves.tsv.",
        "# A verdict: works | warns:<deprecation category> | fails:<exception> |",
        "#   needs:<provider> (failed on a provider none of the venvs had: unknown).",
        "# name '-': the module itself (import module); a name without a row shares the verdict",
        "#   of a module that fails or warns (and is unknown in one that works).",
        *(f"# {line}" for line in counts),
    ]
    text = "\n".join(head) + "\n" + "\n".join("\t".join(r) for r in [columns, *out]) + "\n"
    (DATA / VERDICTS_FILE).write_text(text, encoding="utf-8")
    print("\n".join(counts), file=sys.stderr)


def distributions(venv: Path) -> str:
    """The Airflow distributions of a venv, pinned, for the header."""
    site = site_packages(venv)
    names = []
    for info in sorted(site.glob("apache_airflow*.dist-info")):
        name, _, version = info.name[: -len(".dist-info")].partition("-")
        names.append(f"{name.replace('_', '-')}=={version}")
    return " ".join(names)


def summary(
    paths: dict[str, set[str]], verdicts: dict[str, dict[str, dict[str, str]]], versions: list[str]
) -> list[str]:
    lines = [f"{sum(len(n) + 1 for n in paths.values())} paths ({len(paths)} modules)."]
    for version in versions:
        counts: dict[str, int] = {}
        for module, names in paths.items():
            for name in (MODULE, *names):
                verdict = verdicts[version][module].get(name, "unknown")
                kind = "unknown" if undecided(verdict) else verdict.split(":")[0]
                counts[kind] = counts.get(kind, 0) + 1
        lines.append(f"Airflow {version}: " + ", ".join(f"{k} {counts[k]}" for k in sorted(counts)))
    return lines


if __name__ == "__main__":
    main()
