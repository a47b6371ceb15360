"""Generate the provider-id, task-decorator and import-move tables in dagroute_lint/catalog/data/.

Everything is read from Airflow's own wheels, never imported or installed: the ``apache-airflow``
meta-package METADATA (which providers exist), the ``apache-airflow-core`` and ``task-sdk`` sources
(the deprecation shims that say where an Airflow 2 path went), the Airflow 2 wheel (its own
aliases, and the decorators it built in) and a handful of provider wheels (``task-decorators`` in
``get_provider_info``).

To refresh: bump the pins below, run ``python scripts/generate_provider_data.py`` from the
repository root (it ``pip download``s about 25 MB of wheels into a temporary directory; pass
``--wheels DIR`` to keep or reuse them), review the diff of ``catalog/data/`` and commit it.
"""

from __future__ import annotations

import argparse
import ast
import email.parser
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from dagroute_lint.catalog.providers import (  # noqa: E402
    MOVE_COLUMNS,
    PROVIDER_PREFIX,
    SHIM_MODULE_COLUMNS,
    canonical_distribution,
    canonical_name,
    provider_id,
)

DATA = REPO / "dagroute_lint" / "catalog" / "data"

AIRFLOW_3 = "3.3.2"  # the meta-package; it pins core and the task SDK below
AIRFLOW_3_CORE = "3.3.2"
TASK_SDK = "1.3.2"
AIRFLOW_2 = "2.11.0"  # the last 2.x minor: its aliases and built-in decorators are the 2.x story

# Providers whose get_provider_info is read for ``task-decorators``. Reading all ~100 wheels is too
# much to download, so this lists the Apache providers that ship a ``decorators`` package in the
# apache/airflow tree (checked by hand; amazon has one unreleased as of 9.39.0). A provider missing
# here leaves its ``@task.<kind>`` unknown to the linter, which then stays silent about it.
DECORATOR_PROVIDERS: dict[str, str] = {
    "standard": "1.21.0",
    "cncf.kubernetes": "10.25.0",
    "common.sql": "2.4.0",
    "common.ai": "1.0.0",
    "docker": "4.6.1",
    "apache.spark": "6.3.4",
    "snowflake": "6.20.0",
    "sftp": "7.0.0",
    "amazon": "9.39.0",
}

# Airflow 2 modules that DAG code imports from; a real module here that Airflow 3 no longer has
# becomes a "removed" row even when no shim table ever mentioned it.
DAG_FACING_PACKAGES = (
    "operators",
    "sensors",
    "hooks",
    "triggers",
    "decorators",
    "datasets",
    "timetables",
    "utils",
    "models",
    "io",
    "lineage",
)

NONE = "-"
WILDCARD = "*"


@dataclass(frozen=True)
class Row:
    """One line of import_moves.tsv before it is written."""

    old_module: str
    old_name: str
    new_module: str | None
    new_name: str | None
    removed: bool
    source: str
    note: str = ""
    airflow2_distribution: str | None = None


# --- wheels ---------------------------------------------------------------------------------------


def _requirements() -> list[str]:
    reqs = [
        f"apache-airflow=={AIRFLOW_3}",
        f"apache-airflow-core=={AIRFLOW_3_CORE}",
        f"apache-airflow-task-sdk=={TASK_SDK}",
        f"apache-airflow=={AIRFLOW_2}",
    ]
    reqs += [f"{canonical_distribution(pid)}=={v}" for pid, v in DECORATOR_PROVIDERS.items()]
    return reqs


def download(dest: Path) -> None:
    """Fetch the pinned wheels (no dependencies) unless they are already in ``dest``."""
    missing = [r for r in _requirements() if _find_wheel(dest, *r.split("==")) is None]
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
    for req in missing:  # one at a time: pip refuses two pins of apache-airflow in one call
        subprocess.run([*pip, "--dest", str(dest), req], check=True)


def _find_wheel(directory: Path, dist: str, version: str) -> Path | None:
    stem = f"{canonical_name(dist).replace('-', '_')}-{version}-"
    found = sorted(directory.glob(f"{stem}*.whl"))
    return found[0] if found else None


def wheel(directory: Path, dist: str, version: str) -> zipfile.ZipFile:
    path = _find_wheel(directory, dist, version)
    if path is None:
        raise SystemExit(f"missing wheel {dist}=={version} in {directory}")
    return zipfile.ZipFile(path)


def metadata(whl: zipfile.ZipFile, filename: str = "METADATA") -> str:
    name = next(n for n in whl.namelist() if n.endswith(f".dist-info/{filename}"))
    return whl.read(name).decode()


def module_names(whl: zipfile.ZipFile) -> set[str]:
    """Every importable module and package in a wheel, as dotted names."""
    out: set[str] = set()
    for name in whl.namelist():
        if not name.endswith(".py") or ".dist-info/" in name:
            continue
        parts = name[: -len(".py")].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.add(".".join(parts))
    return out


def module_of(path: str) -> str:
    parts = path[: -len(".py")].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# --- provider ids -------------------------------------------------------------------------------


PROVIDER_REQ = re.compile(r"^(apache-airflow-providers-[A-Za-z0-9._-]+)")


def provider_distributions(meta: str) -> set[str]:
    """Provider distributions named by ``Requires-Dist`` lines (extras and markers ignored)."""
    headers = email.parser.Parser().parsestr(meta)
    out: set[str] = set()
    for req in headers.get_all("Requires-Dist") or []:
        match = PROVIDER_REQ.match(req.strip())
        if match:
            out.add(canonical_name(match.group(1)))
    return out


def id_of(distribution: str) -> str:
    # The reverse rule Airflow applies itself (providers/common/compat/.../check.py): Apache
    # provider ids never contain a dash, so every dash in the distribution name was a dot.
    return distribution[len(PROVIDER_PREFIX) :].replace("-", ".")


def provider_info(whl: zipfile.ZipFile) -> tuple[str, dict[str, object]]:
    """The entry-point module and the literal dict ``get_provider_info()`` returns."""
    entry_points = metadata(whl, "entry_points.txt")
    match = re.search(r"^provider_info\s*=\s*([\w.]+):get_provider_info", entry_points, re.M)
    if match is None:
        raise SystemExit(f"{whl.filename}: no apache_airflow_provider entry point")
    module = match.group(1)
    tree = ast.parse(whl.read(module.replace(".", "/") + ".py"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and node.value is not None:
            info = ast.literal_eval(node.value)
            if isinstance(info, dict):
                return module, info
    raise SystemExit(f"{whl.filename}: get_provider_info returns no literal dict")


# --- task decorators ----------------------------------------------------------------------------


def collection_attributes(source: bytes) -> list[str]:
    """Names bound with ``staticmethod(...)`` in ``class TaskDecoratorCollection``."""
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "TaskDecoratorCollection":
            return [
                target.id
                for stmt in node.body
                if isinstance(stmt, ast.Assign)
                and isinstance(stmt.value, ast.Call)
                and isinstance(stmt.value.func, ast.Name)
                and stmt.value.func.id == "staticmethod"
                for target in stmt.targets
                if isinstance(target, ast.Name)
            ]
    raise SystemExit("TaskDecoratorCollection not found")


# --- shim tables --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shim:
    """One entry of a deprecation table: ``module.name`` forwards to ``target``."""

    module: str
    name: str  # "*" forwards every attribute to the module ``target``
    target: str
    path: str  # the file holding the table, for the source column
    override: str | None = None  # the path the deprecation warning recommends instead
    warns: bool = True  # False for a plain PEP 562 re-export


def _str_dict(node: ast.expr | None, own_module: str) -> dict[str, ast.expr] | None:
    """A dict literal with str (or ``__name__``) keys; values are left to the caller."""
    if not isinstance(node, ast.Dict):
        return None
    out: dict[str, ast.expr] = {}
    for key, value in zip(node.keys, node.values):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            out[key.value] = value
        elif isinstance(key, ast.Name) and key.id == "__name__":
            out[own_module] = value
        else:
            return None
    return out


def _literal_str(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _module_dicts(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level ``NAME = {...}`` (or annotated) assignments, by name."""
    out: dict[str, ast.expr] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if isinstance(target, ast.Name):
            out[target.id] = value
    return out


def _nested_table(
    node: ast.expr | None, dicts: dict[str, ast.expr], own: str, path: str
) -> dict[tuple[str, str], str]:
    """``{sub: {name: target}}`` as ``{(virtual module, name): target}``."""
    if isinstance(node, ast.Name):
        node = dicts.get(node.id)
    table = _str_dict(node, own)
    if table is None:
        if isinstance(node, ast.Dict) and not node.keys:
            return {}
        raise SystemExit(f"{path}: add_deprecated_classes table is not a literal")
    out: dict[tuple[str, str], str] = {}
    for sub, names_node in table.items():
        virtual = own if sub == own else f"{own}.{sub}"
        names = _str_dict(names_node, own)
        if names is None:
            raise SystemExit(f"{path}: {sub} is not a literal dict")
        for name, target_node in names.items():
            target = _literal_str(target_node)
            if target is None:
                raise SystemExit(f"{path}: {sub}.{name} is not a string")
            # 2.11's kubernetes table has a few targets with a stray trailing dot.
            out[virtual, name] = target.rstrip(".")
    return out


def shim_tables(whl: zipfile.ZipFile) -> Iterator[Shim]:
    """Every ``add_deprecated_classes`` entry in a wheel (airflow/utils/deprecation_tools.py).

    Also the hand-written PEP 562 tables (``__lazy_imports``, ``__deprecated_imports``) that send
    a name to ``airflow.sdk`` or a provider: those are moves out of core as well.
    """
    for path in sorted(whl.namelist()):
        if not path.startswith("airflow/") or not path.endswith(".py"):
            continue
        source = whl.read(path)
        if b"add_deprecated_classes" not in source and b"_imports" not in source:
            continue
        own = module_of(path)
        tree = ast.parse(source)
        dicts = _module_dicts(tree)
        for stmt in tree.body:
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == "add_deprecated_classes"
                and call.args
            ):
                continue
            table = _nested_table(call.args[0], dicts, own, path)
            overrides = _nested_table(call.args[2], dicts, own, path) if len(call.args) > 2 else {}
            for (module, name), target in table.items():
                yield Shim(module, name, target, path, overrides.get((module, name)))
        for var in ("__lazy_imports", "__deprecated_imports"):
            lazy = _str_dict(dicts.get(var), own)
            for name, value in (lazy or {}).items():
                if isinstance(value, ast.Tuple):  # airflow/__init__.py: (module, attr, deprecated)
                    lazy_target, attr = _literal_str(value.elts[0]), _literal_str(value.elts[1])
                    flag = value.elts[2]
                    warns = isinstance(flag, ast.Constant) and flag.value is True
                else:  # __deprecated_imports warns; airflow/models' __lazy_imports does not
                    lazy_target, attr = _literal_str(value), name
                    warns = var == "__deprecated_imports"
                if not lazy_target or not attr:
                    continue  # a module, not a name (``airflow.version``)
                if lazy_target.startswith("."):
                    lazy_target = own + lazy_target
                if lazy_target.startswith(("airflow.sdk", "airflow.providers.")):
                    yield Shim(own, name, f"{lazy_target}.{attr}", path, warns=warns)


def sdk_lazy_imports(sdk: zipfile.ZipFile) -> dict[str, str]:
    """``airflow.sdk.__lazy_imports``: public name -> absolute module it comes from."""
    table = _module_dicts(ast.parse(sdk.read("airflow/sdk/__init__.py"))).get("__lazy_imports")
    if table is None:
        raise SystemExit("airflow.sdk.__lazy_imports not found")
    return {
        name: ("airflow.sdk" + module if module.startswith(".") else module)
        for name, module in ast.literal_eval(table).items()
    }


def split_target(target: str) -> tuple[str, str]:
    module, _, name = target.rpartition(".")
    return module, name


# --- import moves -------------------------------------------------------------------------------


@dataclass
class Moves:
    """What the wheels say about Airflow 2 paths, and the rows derived from it."""

    known_ids: frozenset[str]
    real3: set[str]  # modules (files) of core + task SDK 3.x
    shims3: dict[tuple[str, str], Shim]
    shims2: dict[tuple[str, str], Shim]
    sdk_public: dict[str, str]  # airflow.sdk.__lazy_imports
    replacements: dict[str, Row]  # removed module -> its "*" row, for chasing targets into it

    def dist(self, module: str | None) -> str | None:
        pid = provider_id(module, self.known_ids) if module else None
        return canonical_distribution(pid) if pid else None

    def airflow2_dist(self, module: str, name: str) -> str | None:
        shim = self.shims2.get((module, name)) or self.shims2.get((module, WILDCARD))
        if shim is None:
            return None
        return self.dist(shim.target if shim.name == WILDCARD else split_target(shim.target)[0])

    def public(self, module: str, name: str) -> tuple[str, str, str]:
        """Prefer ``airflow.sdk.X`` when the SDK re-exports exactly this object as X."""
        if module.startswith("airflow.sdk.") and self.sdk_public.get(name) == module:
            return "airflow.sdk", name, f"shim target {module}.{name}"
        return module, name, ""

    def resolve(self, target: str) -> tuple[str | None, str | None, str]:
        """Where an Airflow 2 target lives in Airflow 3: (module, name, note)."""
        module, name = split_target(target)
        for _ in range(5):
            shim = self.shims3.get((module, name)) or self.shims3.get((module, WILDCARD))
            if shim is None:
                break
            module, name = (
                (shim.target, name) if shim.name == WILDCARD else split_target(shim.target)
            )
        # A shim module only has the names its table lists, and those were followed above.
        if module.startswith("airflow.providers.") or module in self.real3:
            return self.public(module, name)
        row = self.replacements.get(module)
        if row is not None and row.new_module is not None:
            new_name = name if row.new_name == WILDCARD else row.new_name
            return row.new_module, new_name, row.note
        return None, None, f"Airflow {AIRFLOW_2} pointed to {target}, which Airflow 3 does not have"

    def shim3_row(self, shim: Shim) -> Row:
        if shim.name == WILDCARD:
            new_module, new_name, note = shim.target, WILDCARD, ""
        else:
            new_module, new_name, note = self.public(*split_target(shim.target))
        if not shim.warns:
            note = "; ".join(filter(None, [note, "a plain re-export: no deprecation warning"]))
        return Row(
            shim.module,
            shim.name,
            new_module,
            new_name,
            False,
            f"core {AIRFLOW_3_CORE} {shim.path}",
            note,
            self.airflow2_dist(shim.module, shim.name),
        )

    def shim2_row(self, shim: Shim) -> Row:
        # The override is what 2.11's warning told users to import; some overrides are garbled
        # ("airflow.airflow.providers..."), so only a provider path is trusted.
        target = shim.target
        if shim.override and shim.override.startswith("airflow.providers."):
            target = shim.override
        if shim.name == WILDCARD:
            new_module, new_name, note = self.resolve(f"{target}.{WILDCARD}")
        else:
            new_module, new_name, note = self.resolve(target)
        return Row(
            shim.module,
            shim.name,
            new_module,
            new_name,
            True,
            f"{AIRFLOW_2} {shim.path}",
            note,
            self.airflow2_dist(shim.module, shim.name),
        )


# Moves no shim table states, kept by hand with the evidence that backs each one.
HAND_MOVES: tuple[Row, ...] = (
    # airflow-core/src/airflow/models/dag.py defines a module __getattr__ for exactly these two.
    Row(
        "airflow.models.dag",
        "DAG",
        "airflow.sdk",
        "DAG",
        False,
        f"hand: airflow/models/dag.py __getattr__ in core {AIRFLOW_3_CORE}; semantics 6.3",
    ),
    Row(
        "airflow.models.dag",
        "dag",
        "airflow.sdk",
        "dag",
        False,
        f"hand: airflow/models/dag.py __getattr__ in core {AIRFLOW_3_CORE}; semantics 6.3",
    ),
    Row(
        "airflow.operators.subdag",
        WILDCARD,
        "airflow.sdk",
        "TaskGroup",
        True,
        f"hand: semantics 6.3 (gone in {AIRFLOW_3_CORE})",
        "SubDAGs were removed in Airflow 3.0; group the tasks with a TaskGroup instead",
    ),
    # Airflow 3.0 renamed datasets to assets (airflow/datasets is gone from core; the SDK exports
    # the Asset classes). The new classes take other arguments, so these are suggestions.
    *(
        Row(
            "airflow.datasets",
            old,
            "airflow.sdk",
            new,
            True,
            f"hand: semantics 6.3; airflow.sdk.__lazy_imports in task-sdk {TASK_SDK}",
            "Airflow 3 renamed datasets to assets",
        )
        for old, new in (
            (WILDCARD, None),
            ("Dataset", "Asset"),
            ("DatasetAlias", "AssetAlias"),
            ("DatasetAll", "AssetAll"),
            ("DatasetAny", "AssetAny"),
        )
    ),
    Row(
        "airflow.datasets.metadata",
        "Metadata",
        "airflow.sdk",
        "Metadata",
        True,
        f"hand: airflow.sdk.__lazy_imports in task-sdk {TASK_SDK}",
        "Airflow 3 renamed datasets to assets; Metadata takes the asset as 'asset'",
    ),
    Row(
        "airflow.timetables.datasets",
        "DatasetOrTimeSchedule",
        "airflow.timetables.assets",
        "AssetOrTimeSchedule",
        True,
        f"hand: airflow/timetables/assets.py in core {AIRFLOW_3_CORE}",
        "Airflow 3 renamed datasets to assets",
    ),
    Row(
        "airflow.utils.dag_parsing_context",
        "get_parsing_context",
        "airflow.sdk",
        "get_parsing_context",
        True,
        f"hand: airflow.sdk.__lazy_imports in task-sdk {TASK_SDK}",
    ),
    # In 2.11 airflow/hooks/dbapi.py re-exports DbApiHook from the common.sql provider.
    Row(
        "airflow.hooks.dbapi",
        WILDCARD,
        "airflow.providers.common.sql.hooks.sql",
        WILDCARD,
        True,
        f"hand: airflow/hooks/dbapi.py in {AIRFLOW_2} re-exports the common.sql provider's hook",
        "",
        "apache-airflow-providers-common-sql",
    ),
)


def check_hand_move(row: Row, importable3: set[str], known_modules: set[str]) -> None:
    """Refuse a hand row the wheels contradict, so a refresh cannot silently rot it."""
    if row.removed == (row.old_module in importable3):
        state = "importable" if row.old_module in importable3 else "missing"
        raise SystemExit(f"hand move {row.old_module}: removed={row.removed} but it is {state}")
    if row.new_module and row.new_module not in known_modules:
        raise SystemExit(f"hand move {row.old_module}: {row.new_module} not found in the wheels")


def real_module_removal(module: str, candidates: set[str]) -> Row:
    """A real Airflow 2 module that Airflow 3 dropped, pointed at its namesake if one exists.

    The standard provider and the task SDK took over the 2.x decorator modules under the same
    file names (``airflow/decorators/python.py`` -> ``providers/standard/decorators/python.py``).
    """
    package, leaf = module.split(".")[1], module.rsplit(".", maxsplit=1)[-1]
    source = f"{AIRFLOW_2} module"
    for candidate in (
        f"airflow.providers.standard.{package}.{leaf}",
        f"airflow.sdk.definitions.{package}.{leaf}",
    ):
        if candidate in candidates:
            return Row(module, WILDCARD, candidate, WILDCARD, True, source)
    print(f"warning: {module} removed with no replacement known", file=sys.stderr)
    return Row(module, WILDCARD, None, None, True, source)


def add_module_rows(rows: list[Row], importable3: set[str]) -> list[Row]:
    """Give every removed module a ``*`` row, so ``import old.module`` is reported too."""
    by_module: dict[str, list[Row]] = {}
    for row in rows:
        by_module.setdefault(row.old_module, []).append(row)
    out = list(rows)
    for module, group in sorted(by_module.items()):
        if module in importable3 or any(r.old_name == WILDCARD for r in group):
            continue
        # The module as a whole goes where its names go, if they agree (ignoring dead ends).
        targets = {r.new_module for r in group if r.new_module}
        same_names = all(r.new_name == r.old_name for r in group if r.new_module)
        new_module = targets.pop() if len(targets) == 1 else None
        dists = {r.airflow2_distribution for r in group}
        out.append(
            replace(
                group[0],
                old_name=WILDCARD,
                new_module=new_module,
                new_name=WILDCARD if new_module and same_names else None,
                note="",
                airflow2_distribution=dists.pop() if len(dists) == 1 else None,
            )
        )
    return out


def build_moves(
    known_ids: frozenset[str],
    core3: zipfile.ZipFile,
    sdk3: zipfile.ZipFile,
    airflow2: zipfile.ZipFile,
    provider_wheels: Iterable[zipfile.ZipFile],
) -> tuple[list[Row], Moves]:
    modules3 = module_names(core3) | module_names(sdk3)
    modules2 = module_names(airflow2)
    shims3 = {(s.module, s.name): s for s in shim_tables(core3)}
    shims2 = {(s.module, s.name): s for s in shim_tables(airflow2)}
    importable3 = modules3 | {m for m, _ in shims3}
    provider_modules = set().union(*(module_names(w) for w in provider_wheels))
    moves = Moves(known_ids, modules3, shims3, shims2, sdk_lazy_imports(sdk3), {})

    # Removed real modules first: 2.11 aliases may point into them (subdag_operator -> subdag).
    rows: list[Row] = []
    for row in HAND_MOVES:
        check_hand_move(row, importable3, provider_modules | modules3)
        rows.append(row)
    covered = {r.old_module for r in rows} | {m for m, _ in shims2}
    for module in sorted(modules2):
        package = module.split(".")[1] if module.count(".") >= 1 else ""
        if package in DAG_FACING_PACKAGES and module not in importable3 | covered:
            rows.append(real_module_removal(module, provider_modules | modules3))
    moves.replacements = {r.old_module: r for r in rows if r.removed and r.old_name == WILDCARD}

    rows += [moves.shim3_row(shim) for shim in shims3.values()]
    # A 2.11 alias whose module Airflow 3 still has is not a 2 -> 3 change.
    rows += [moves.shim2_row(s) for s in shims2.values() if s.module not in importable3]
    rows = add_module_rows(rows, importable3)

    seen: set[tuple[str, str]] = set()
    for row in rows:
        key = (row.old_module, row.old_name)
        if key in seen:
            raise SystemExit(f"duplicate move {key}")
        seen.add(key)
    rows.sort(key=lambda r: (r.old_module, r.old_name != WILDCARD, r.old_name))
    return rows, moves


# --- writing ------------------------------------------------------------------------------------


def header(title: str, lines: Iterable[str]) -> str:
    out = [
        f"# {title}",
        "# generated by scripts/generate_provider_data.py — do not edit",
        *(f"# {line}" if line else "#" for line in lines),
    ]
    return "\n".join(out) + "\n"


def cell(value: str | None) -> str:
    if value is None or value == "":
        return NONE
    if "\t" in value or "\n" in value:
        raise SystemExit(f"tab or newline in {value!r}")
    return value


def write_table(
    path: Path, head: str, columns: tuple[str, ...], rows: Iterable[tuple[str | None, ...]]
) -> int:
    lines = ["\t".join(columns)]
    lines += ["\t".join(cell(v) for v in row) for row in rows]
    path.write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
    return len(lines) - 1


def write_provider_ids(ids: dict[str, str], dists3: set[str], dists2: set[str]) -> None:
    def listed_by(dist: str) -> str:
        versions = [v for v, ds in ((AIRFLOW_3, dists3), (AIRFLOW_2, dists2)) if dist in ds]
        return ",".join(versions) or "provider-wheel"

    count = write_table(
        DATA / "provider_ids.tsv",
        header(
            "Apache Airflow provider ids and their distributions.",
            [
                f"Source: Requires-Dist lines of apache-airflow {AIRFLOW_3} and {AIRFLOW_2} "
                f"(and apache-airflow-core {AIRFLOW_3_CORE});",
                "id = distribution name minus 'apache-airflow-providers-', dashes read as dots "
                "(semantics 6.1).",
                "listed_by: the apache-airflow versions whose METADATA names the provider.",
            ],
        ),
        ("id", "distribution", "listed_by"),
        ((pid, ids[pid], listed_by(ids[pid])) for pid in sorted(ids)),
    )
    print(f"provider_ids.tsv: {count} ids")


def write_decorators(core2: list[str], core3: list[str], registered: dict[str, str]) -> None:
    count = write_table(
        DATA / "task_decorators.tsv",
        header(
            "Who provides @task.<kind>: 'core' (built into Airflow) or a provider id.",
            [
                f"core on Airflow 2: TaskDecoratorCollection in apache-airflow {AIRFLOW_2} "
                "airflow/decorators/__init__.py;",
                "core on Airflow 3: TaskDecoratorCollection in apache-airflow-task-sdk "
                f"{TASK_SDK};",
                "providers: 'task-decorators' in get_provider_info of",
                ", ".join(f"{pid} {v}" for pid, v in DECORATOR_PROVIDERS.items()) + ".",
                "A bare @task is @task.python (semantics 6.2).",
            ],
        ),
        ("kind", "airflow2", "airflow3"),
        (
            (
                kind,
                "core" if kind in core2 else registered.get(kind),
                "core" if kind in core3 else registered.get(kind),
            )
            for kind in sorted(set(core2) | set(core3) | set(registered))
        ),
    )
    print(f"task_decorators.tsv: {count} kinds")


def write_moves(rows: list[Row], moves: Moves) -> None:
    count = write_table(
        DATA / "import_moves.tsv",
        header(
            "Airflow 2 import paths: where Airflow 3 moved them, or that Airflow 3 removed them.",
            [
                "source says where a row comes from:",
                f"  'core {AIRFLOW_3_CORE} <file>': a deprecation shim (add_deprecated_classes or "
                "a PEP 562 __lazy_imports)",
                "    in that file of apache-airflow-core; the old path still imports (removed=no);",
                f"  '{AIRFLOW_2} <file>': an alias in that file of apache-airflow {AIRFLOW_2} "
                f"whose module core {AIRFLOW_3_CORE} lacks;",
                f"  '{AIRFLOW_2} module': a real {AIRFLOW_2} module under airflow/{{"
                + ",".join(DAG_FACING_PACKAGES)
                + "} that core lacks;",
                "  'hand: ...': kept by hand in the generator (HAND_MOVES) with its evidence.",
                "old_name '*': any name of old_module, and the module itself; new_name '*': the "
                "name as imported.",
                "new_module/new_name: the Airflow 3 path; for removed rows the suggested "
                "replacement ('-': none known).",
                f"Replacements of {AIRFLOW_2} aliases are where {AIRFLOW_2} pointed, followed "
                f"through the {AIRFLOW_3_CORE} shims;",
                "a provider may have renamed them since.",
                "distribution: provider the new path needs ('-': Airflow core or the task SDK).",
                "airflow2_distribution: provider the old path already needed on Airflow 2.",
            ],
        ),
        MOVE_COLUMNS,
        (
            (
                r.old_module,
                r.old_name,
                r.new_module,
                r.new_name,
                moves.dist(r.new_module),
                "yes" if r.removed else "no",
                r.airflow2_distribution,
                r.source,
                r.note,
            )
            for r in rows
        ),
    )
    print(f"import_moves.tsv: {count} rows")


def write_shim_modules(moves: Moves) -> None:
    # A module that only a deprecation table creates has the names its table lists and no other:
    # ``from airflow.operators.python import is_venv_installed`` fails on Airflow 3.
    wildcard = {module for module, name in moves.shims3 if name == WILDCARD}
    virtual = {module for module, _ in moves.shims3} - moves.real3 - wildcard
    count = write_table(
        DATA / "shim_modules.tsv",
        header(
            "Airflow 3 modules that exist only as deprecation shims, without a module file.",
            [
                f"Source: add_deprecated_classes tables in apache-airflow-core {AIRFLOW_3_CORE} "
                "whose module is no file of core",
                f"or task-sdk {TASK_SDK}. Such a module has exactly the names import_moves.tsv "
                "lists for it.",
            ],
        ),
        SHIM_MODULE_COLUMNS,
        ((module,) for module in sorted(virtual)),
    )
    print(f"shim_modules.tsv: {count} modules")


# --- main ---------------------------------------------------------------------------------------


def generate(wheels: Path) -> None:
    meta3 = wheel(wheels, "apache-airflow", AIRFLOW_3)
    meta2 = wheel(wheels, "apache-airflow", AIRFLOW_2)
    core3 = wheel(wheels, "apache-airflow-core", AIRFLOW_3_CORE)
    sdk3 = wheel(wheels, "apache-airflow-task-sdk", TASK_SDK)
    provider_wheels = {
        pid: wheel(wheels, canonical_distribution(pid), v) for pid, v in DECORATOR_PROVIDERS.items()
    }

    dists3 = provider_distributions(metadata(meta3)) | provider_distributions(metadata(core3))
    dists2 = provider_distributions(metadata(meta2))
    ids = {id_of(d): d for d in dists3 | dists2}
    registered: dict[str, str] = {}
    for pid, whl in provider_wheels.items():
        module, info = provider_info(whl)
        # Cheap confirmation of the id <-> module <-> distribution rule on the wheels we have.
        if module != f"airflow.providers.{pid}.get_provider_info":
            raise SystemExit(f"{pid}: entry point is {module}")
        if info["package-name"] != canonical_distribution(pid):
            raise SystemExit(f"{pid}: package-name is {info['package-name']}")
        ids.setdefault(pid, canonical_distribution(pid))
        decorators = info.get("task-decorators") or []
        assert isinstance(decorators, list)
        for entry in decorators:
            kind = entry["name"]
            if registered.setdefault(kind, pid) != pid:
                raise SystemExit(f"@task.{kind} registered by {registered[kind]} and {pid}")
    for pid, dist in ids.items():
        if canonical_distribution(pid) != dist:
            raise SystemExit(f"{pid} does not map back to {dist}")

    write_provider_ids(ids, dists3, dists2)
    write_decorators(
        collection_attributes(meta2.read("airflow/decorators/__init__.py")),
        collection_attributes(sdk3.read("airflow/sdk/definitions/decorators/__init__.py")),
        registered,
    )
    rows, moves = build_moves(frozenset(ids), core3, sdk3, meta2, provider_wheels.values())
    write_moves(rows, moves)
    write_shim_modules(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--wheels", type=Path, help="directory to download wheels to, or reuse")
    args = parser.parse_args()
    DATA.mkdir(exist_ok=True)
    if args.wheels:
        args.wheels.mkdir(parents=True, exist_ok=True)
        download(args.wheels)
        generate(args.wheels)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            download(Path(tmp))
            generate(Path(tmp))


if __name__ == "__main__":
    main()
