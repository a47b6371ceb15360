"""Write ``catalog/data/import_verdicts.tsv``: does each known Airflow import fail, warn or work.

A path's verdict is what really happens when it is imported in a real Airflow of each checked
release (the newest patch of every minor version, ``CHECKED_RELEASES`` of
``catalog/import_verdicts.py``; one column each), never what a table says should happen: each
module is imported in a fresh child process (forked from one that has imported ``airflow``, and
the few heavy modules of ``PRELOAD`` that import without an error or a warning: re-importing
2.10.5 this way gave all 9,340 verdicts of the table made without them), every ``from module
import name`` of it is executed there with all warnings recorded, and the outcome is
classified:

- ``fails:<exception>``: the import raises (``ModuleNotFoundError``, ``ImportError``...);
- ``warns:<category>``: it imports, but Airflow warns that it is deprecated (a
  ``DeprecationWarning``/``FutureWarning`` subclass raised by Airflow code or naming Airflow);
- ``works``: it imports without such a warning;
- ``needs:<provider>`` (``warns:<category>:needs:<provider>`` when it warned first): the import
  failed on a provider package that no venv of that version has, or ``needs:<package>`` on a
  package outside Airflow (an extra's, as ``kubernetes`` for ``airflow.kubernetes`` on 2.2), so
  the verdict is unknown: what the venv lacks is no fact about Airflow.

The known paths are every module of the Airflow 2.10.5 package with its public names (defined
in its source, re-exported from Airflow, or keys of its lazy/deprecated tables) and its
submodules, every old and new path of ``import_moves.tsv``, and, for a move that names only a
successor module, the old name looked up in that module. Nothing here is run in CI; the output is
shipped.

To refresh, give one ``VERSION=PATH`` venv (or more: a later venv of a version decides only paths
an earlier one could not, for want of a provider) for every release of ``CHECKED_RELEASES``, or
``--reuse VERSION`` to carry a release's column over from the shipped table (when the known paths
are unchanged, as when a new release is added). 2.10.5 and 3.3.2 are the conformance suite's
venvs, in its cache inside the test environment (see ``tests/conformance/airflow_env.py``). The
others hold ``apache-airflow`` alone, as ``pip install apache-airflow==VERSION`` would have
installed it when it was released: the constraints files live on GitHub, not the package index,
so ``uv`` resolves against the index as it stood then (``--exclude-newer``, three days after the
release's upload), on a Python the release supports (3.9 for 2.2 and 2.3, 3.10 for 2.4 to 2.6,
3.11 from 2.7)::

    uv venv --python 3.9 /tmp/airflow-venvs/airflow-2.2.5
    uv pip install --python /tmp/airflow-venvs/airflow-2.2.5/bin/python \\
        --exclude-newer 2022-04-07 apache-airflow==2.2.5
    # ... likewise for each release of CHECKED_RELEASES; a new minor version is added there first

    python scripts/generate_import_verdicts.py --cache /tmp/verdicts-cache \\
        2.2.5=/tmp/airflow-venvs/airflow-2.2.5 ... \\
        2.10.5=.venv/dagroute-lint-cache/airflow-2.10.5-venv ... \\
        3.3.2=.venv/dagroute-lint-cache/airflow-3.3.2-venv \\
        3.3.2=.venv/dagroute-lint-cache/airflow-3.3.2-providers-venv

The releases are imported two at a time (each holds one process with Airflow imported, and forks
a child per module): 1 to 3 minutes a venv of Airflow alone on two cores, about 17 for the 3.3.2
providers venv (only the paths the first venv could not decide, but each imports providers).
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
    CHECKED_RELEASES,
    MODULE,
    VERDICT_COLUMNS,
    VERDICTS_FILE,
    compact,
    expand,
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
# Modules most children would import again (seconds each: BaseOperator and the models behind it,
# the web server's views, the command line), imported once by the parent when that changes no
# verdict (see ``main`` in ``PROBE``). A DAG file's ``from airflow import DAG`` imports the first.
PRELOAD = (
    "airflow.models.dag",
    "airflow.models.baseoperator",
    "airflow.models.taskinstance",
    "airflow.sensors.base",
    "airflow.www.app",
    "airflow.www.views",
    "airflow.api_fastapi.app",
    "airflow.cli.cli_parser",
)
PARALLEL = 2  # releases imported at once: each runs one module at a time, on one core
IMPORTED_IN = "# Imported in: "  # the header line naming each release's venvs

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

def missing_dependency(error):
    # The provider (airflow.providers.x) or the package outside Airflow (an extra's, such as
    # kubernetes on 2.2) whose import failed: what the venv lacks, not what Airflow does.
    while error is not None and not (isinstance(error, ImportError) and error.name):
        error = error.__cause__ or error.__context__
    if error is None:
        return None
    name = error.name
    if name.startswith("airflow.providers."):
        parts = name.split(".")
        return ".".join(parts[2:4]) if parts[2] in ("apache", "microsoft", "common", "cncf") else parts[2]
    top = name.split(".")[0]
    return top if top != "airflow" else None

def classify(statement):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(statement, {})
        except BaseException as error:
            warned = deprecation(caught)
            lacking = missing_dependency(error)
            if lacking is not None:
                return (f"warns:{warned}:" if warned else "") + f"needs:{lacking}"
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

def in_child(job, *args):
    # Runs job(*args, write) in a forked child; returns what it wrote to write, read as JSON.
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            job(*args, write)
        finally:
            os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return {"-": "unknown:crashed"}

def main():
    import airflow  # noqa: F401  (every child starts from an imported airflow, as DAG files do)
    for module in PRELOAD:
        # Held by the parent only if importing it alone neither failed nor warned, nor did any
        # module it imported: a module the parent holds is never executed again, so one that
        # warns must stay for each child to import.
        if in_child(child, module, [])["-"] == "works":
            importlib.import_module(module)
    result = {}
    for module, names in json.load(sys.stdin):
        result[module] = in_child(child, module, names)
    print(json.dumps(result))

main()
""".replace("TIMEOUT", str(TIMEOUT)).replace("PRELOAD", repr(PRELOAD))  # noqa: E501


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
            # 2.11 warns (RemovedInAirflow3Warning) on its first timer metric unless this is set:
            # a deprecated setting, not a deprecated import, and it fired on importing every
            # module that reaches airflow.models. Earlier releases ignore the unknown key.
            "AIRFLOW__METRICS__TIMER_UNIT_CONSISTENCY": "True",
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
        yield (module, MODULE, *compact(own))
        for name in sorted(paths[module]):
            cells = tuple(verdicts[v][module].get(name, own[i]) for i, v in enumerate(versions))
            if cells != own or (module, name) in targets:
                yield (module, name, *compact(cells))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("venvs", nargs="+", metavar="VERSION=VENV")
    parser.add_argument(
        "--date",
        default=datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
        help="the generation date the header states (default: today, UTC)",
    )
    parser.add_argument("--cache", help="keep each venv's import results here, to rerun cheaply")
    parser.add_argument(
        "--reuse",
        action="append",
        default=[],
        metavar="VERSION",
        help="take this release's verdicts from the shipped table instead of a venv",
    )
    args = parser.parse_args(argv)
    by_version: dict[str, list[Path]] = {}
    for spec in args.venvs:
        version, _, path = spec.partition("=")
        by_version.setdefault(version, []).append(Path(path).expanduser())
    given = {*by_version, *args.reuse}
    if given != set(CHECKED_RELEASES) or set(by_version) & set(args.reuse):
        missing = sorted(set(CHECKED_RELEASES) - given)
        extra = sorted(given - set(CHECKED_RELEASES))
        raise SystemExit(
            f"each release of CHECKED_RELEASES needs a venv or --reuse, not both: missing "
            f"{missing}, unknown {extra}"
        )
    if WALKED not in by_version:
        raise SystemExit(f"a {WALKED} venv is needed: its package is walked for the old paths")
    versions = list(CHECKED_RELEASES)
    walked = walked_paths(site_packages(by_version[WALKED][0]))
    paths = known_paths(walked)
    cache = Path(args.cache).expanduser() if args.cache else None
    shipped = ShippedTable() if args.reuse else None
    with concurrent.futures.ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        jobs = {v: pool.submit(judge, by_version[v], paths, cache) for v in by_version}
        verdicts = {v: job.result() for v, job in jobs.items()}
    for version in args.reuse:
        assert shipped is not None
        verdicts[version] = shipped.verdicts(version, paths)
    out = list(rows(paths, verdicts, versions))
    counts = summary(paths, verdicts, versions)
    venvs = "; ".join(
        f"{v}: " + ", ".join(distributions(p) for p in by_version[v])
        if v in by_version
        else (shipped.imported_in(v) if shipped is not None else "")
        for v in versions
    )
    head = [
        "# Whether each known Airflow import path fails, warns or works, found by importing it.",
        "# generated by scripts/generate_import_verdicts.py — do not edit",
        f"# Generated on {args.date}.",
        f"{IMPORTED_IN}{venvs}",
        f"# Known paths: every module of apache-airflow {WALKED} with its public names and",
        "#   submodules, and every old and new path of import_moves.tsv.",
        "# A verdict: works | warns:<deprecation category> | fails:<exception> |",
        "#   needs:<provider or package> (failed on one none of the venvs had: unknown).",
        "# name '-': the module itself (import module); a name without a row shares the verdict",
        "#   of a module that fails or warns (and is unknown in one that works).",
        "# '=': the verdict of the column before (the release before).",
        *(f"# {line}" for line in counts),
    ]
    text = "\n".join(head) + "\n" + "\n".join("\t".join(r) for r in [VERDICT_COLUMNS, *out]) + "\n"
    (DATA / VERDICTS_FILE).write_text(text, encoding="utf-8")
    print("\n".join(counts), file=sys.stderr)


class ShippedTable:
    """The table as shipped now, to carry a release's column into the new one (``--reuse``)
    without importing that release again: its known paths must be the same."""

    def __init__(self) -> None:
        lines = (DATA / VERDICTS_FILE).read_text(encoding="utf-8").splitlines()
        imported = next(line for line in lines if line.startswith(IMPORTED_IN))
        self.sources = imported[len(IMPORTED_IN) :].split("; ")
        rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
        self.header = rows[0]
        self.cells: dict[str, dict[str, list[str]]] = {}
        for cells in rows[1:]:
            self.cells.setdefault(cells[0], {})[cells[1]] = [*cells[:2], *expand(cells[2:])]

    def verdicts(self, version: str, paths: dict[str, set[str]]) -> dict[str, dict[str, str]]:
        """The release's verdicts as ``judge`` gives them: the table leaves out exactly the name
        rows equal to their module's row, so a name without a row has its module's verdict."""
        column = f"airflow_{version}"
        if column not in self.header:
            raise SystemExit(f"--reuse {version}: the shipped table has no column {column}")
        index = self.header.index(column)
        out: dict[str, dict[str, str]] = {}
        for module, names in paths.items():
            rows = self.cells.get(module, {})
            if MODULE not in rows:
                raise SystemExit(f"--reuse {version}: {module} is not in the shipped table")
            own = rows[MODULE][index]
            out[module] = {MODULE: own, **{n: rows[n][index] if n in rows else own for n in names}}
        return out

    def imported_in(self, version: str) -> str:
        """The shipped header's account of the venvs the release was imported in."""
        return next(s for s in self.sources if s.startswith(f"{version}: "))


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
