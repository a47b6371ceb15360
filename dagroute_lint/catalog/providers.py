"""Map Airflow module paths and TaskFlow decorators to the provider distribution they need."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Collection, Iterable

from dagroute_lint.catalog.data_files import SortedTable, read_table
from dagroute_lint.records import record, replace

PROVIDER_PREFIX = "apache-airflow-providers-"
PROVIDERS_PACKAGE = "airflow.providers"

# The shipped tables, written by scripts/generate_provider_data.py from Airflow's own wheels.
PROVIDER_IDS_FILE = "provider_ids.tsv"
TASK_DECORATORS_FILE = "task_decorators.tsv"
IMPORT_MOVES_FILE = "import_moves.tsv"
SHIM_MODULES_FILE = "shim_modules.tsv"
SHIM_MODULE_COLUMNS = ("module",)

_WILDCARD = "*"  # any name of a module (old_name), or the name as imported (new_name)
_CORE = "core"  # a decorator built into Airflow rather than registered by a provider


@record
class Move:
    """Where an Airflow 2 import went in Airflow 3, or that it is gone, for a rule and its autofix.

    ``removed`` is true when the old path no longer imports at all in Airflow 3; ``new_module`` and
    ``new_name`` are then the suggested replacement (``None`` when nothing replaces it), otherwise
    the path the Airflow 3 deprecation shim forwards to. ``old_name`` and ``new_name`` are ``None``
    for the module itself. ``distribution`` is the provider the new path needs (``None`` when it
    lives in Airflow core or the task SDK); ``airflow2_distribution`` is the provider the old path
    already needed on Airflow 2, where it was an alias into that provider.
    """

    old_module: str
    old_name: str | None
    new_module: str | None
    new_name: str | None
    distribution: str | None
    removed: bool
    airflow2_distribution: str | None
    source: str
    note: str

    @property
    def drop_in(self) -> bool:
        """The new path names the very object the old one did, so an import can be rewritten.

        True where Airflow itself forwards the old name to the new one: a 3.x deprecation shim
        or a hand-kept forward that keeps the name, and any 2.x alias (``DummyOperator`` was
        already ``EmptyOperator`` in Airflow 2, so even that rename is safe). A rename made only
        by a 3.x shim is left to a person: some shims point at a module rather than a class
        (``airflow.utils.context.Context``), others at a class with another interface
        (``Dataset`` -> ``Asset``). Nor is a real module Airflow 3 dropped (its namesake in a
        provider is a successor, not an alias), or a hand-kept replacement of a removed path,
        which is a suggestion (SubDAGs -> TaskGroup).
        """
        if self.new_module is None or self.new_name is None:
            return False
        same_name = self.old_name == self.new_name
        origin = self.source.split(" ", 1)[0]
        if origin == "core":
            return same_name
        if origin == "hand:":
            return same_name and not self.removed
        return origin[:1].isdigit() and not self.source.endswith(" module")

    @property
    def new_path(self) -> str | None:
        """The dotted replacement, as a message would print it."""
        if self.new_module is None:
            return None
        return f"{self.new_module}.{self.new_name}" if self.new_name else self.new_module


# --- public API ---------------------------------------------------------------------------------


def provider_for_module(module: str, airflow_major: int) -> str | None:
    """The provider distribution that importing ``module`` needs, or ``None`` for none.

    ``airflow.providers.cncf.kubernetes.operators.pod`` needs
    ``apache-airflow-providers-cncf-kubernetes`` (longest known provider id wins, see
    ``provider_id``). Under Airflow 3 the core paths that moved (``airflow.operators.bash`` and
    friends) need the provider they moved to, through the deprecation shims; under Airflow 2 they
    are core, except the 2.x aliases that already pointed into a provider. A path Airflow 3 removed
    needs nothing it could satisfy, so it maps to ``None`` there and ``moved_import`` reports it.
    """
    pid = provider_id(module)
    if pid is not None:
        return canonical_distribution(pid)
    moves = _moves_of(module)
    return moves.provider3 if airflow_major >= 3 else moves.provider2


def listed_provider_for(module: str, listed: Iterable[str]) -> str | None:
    """The provider among the ``listed`` distributions that owns ``module`` by Airflow's naming
    rule (``apache-airflow-providers-foo-bar`` owns ``airflow.providers.foo.bar``, semantics
    6.1), when no id of the shipped table covers it: a provider newer than the table, or a third
    party's in the namespace, whose id ``provider_id`` can only guess. The longest id wins;
    ``None`` for a module a known id covers, whose provider is that one."""
    pid = provider_id(module)
    if pid is None or pid in _provider_ids().ids:
        return None
    owners = []
    for name in listed:
        if not name.startswith(PROVIDER_PREFIX):
            continue
        owned = f"{PROVIDERS_PACKAGE}.{name.removeprefix(PROVIDER_PREFIX).replace('-', '.')}"
        if module == owned or module.startswith(owned + "."):
            owners.append((len(owned), name))
    return max(owners)[1] if owners else None


def provider_for_decorator(kind: str, airflow_major: int) -> str | None:
    """The provider that registers ``@task.<kind>`` (``"python"`` for a bare ``@task``).

    ``None`` for a decorator built into Airflow (python, bash, virtualenv, ... on Airflow 2; only
    ``run_if``/``skip_if`` on Airflow 3, where even ``@task`` comes from the standard provider,
    semantics 6.2) and for a kind no table knows: the linter cannot tell whose it is.
    """
    owners = _decorators().get(kind)
    if owners is None:
        return None
    owner = owners[1] if airflow_major >= 3 else owners[0]
    return None if owner is None else canonical_distribution(owner)


def moved_import(module: str, name: str | None = None) -> Move | None:
    """Where the Airflow 2 import ``from module import name`` (``import module`` for ``None``) went.

    ``None`` when the path did not change between Airflow 2 and 3. For ``from pkg import sub``
    where ``sub`` is a removed module rather than a name, the module's row is returned.
    """
    row = _lookup(module, name)
    if row is None and name is not None:
        row = _lookup(f"{module}.{name}", None)
    return row


def shim_module_names(module: str) -> frozenset[str] | None:
    """The names of a module Airflow 3 has only as a deprecation shim, or ``None`` for others.

    ``airflow.operators.python`` is such a module: it forwards ``PythonOperator`` and the rest of
    its table to their new homes and has no other name, so ``from airflow.operators.python import
    is_venv_installed`` fails on Airflow 3 although the module imports.
    """
    if module not in _shim_modules():
        return None
    return _shim_names(module)


@functools.cache  # keyed by the shim modules of the shipped table only
def _shim_names(module: str) -> frozenset[str]:
    return frozenset(m.old_name for m in _moves_of(module).rows if m.old_name)


@functools.cache
def import_moves() -> tuple[Move, ...]:
    """Every row of the shipped moves table, ``*`` rows included as stored."""
    return tuple(_move(row) for row in _moves_table().all_rows())


def module_moves(module: str) -> tuple[Move, ...]:
    """The rows of the shipped moves table whose old path is in ``module``."""
    return _moves_of(module).rows


def provider_id(module: str, known_ids: Collection[str] | None = None) -> str | None:
    """The Apache provider id that owns an ``airflow.providers.*`` module, or ``None``.

    The longest known id wins, because ``airflow.providers.apache``, ``.microsoft``, ``.common``
    and ``.cncf`` are namespace packages shared by many providers (semantics 6.1). A path no
    known id covers (a provider newer than the table, a retired one, a third party using the
    namespace) gets a best guess: the first component after ``airflow.providers``, or the first two
    when the first is one of those namespaces; a bare namespace names no provider.
    """
    parts = module.split(".")
    if len(parts) < 3 or ".".join(parts[:2]) != PROVIDERS_PACKAGE:
        return None
    rest = parts[2:]
    ids = _provider_ids().ids if known_ids is None else known_ids
    for size in range(len(rest), 0, -1):
        candidate = ".".join(rest[:size])
        if candidate in ids:
            return candidate
    namespaces = _provider_ids().namespaces if known_ids is None else _namespaces(known_ids)
    if rest[0] in namespaces:
        return ".".join(rest[:2]) if len(rest) > 1 else None
    return rest[0]


def canonical_distribution(name_or_id: str) -> str:
    """The PEP 503 name of a provider given by id (``cncf.kubernetes``) or distribution name.

    Provider ids never contain a dash and distribution names of providers always do, so a name
    without a dash is an Apache provider id (``standard``, ``cncf.kubernetes``, ``edge3``).
    """
    if "-" not in name_or_id and "_" not in name_or_id:
        return PROVIDER_PREFIX + name_or_id.lower().replace(".", "-")
    return canonical_name(name_or_id)


def known_provider_ids() -> frozenset[str]:
    """Every Apache provider id the shipped table knows (``amazon``, ``common.sql``...)."""
    return _provider_ids().ids


def canonical_name(name: str) -> str:
    """PEP 503 normalisation of a distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


# --- the shipped tables -------------------------------------------------------------------------


@record
class _ProviderIds:
    ids: frozenset[str]
    namespaces: frozenset[str]


@functools.cache
def _provider_ids() -> _ProviderIds:
    rows = read_table(PROVIDER_IDS_FILE, ("id", "distribution", "listed_by"))
    ids = frozenset(row[0] for row in rows if row[0] is not None)
    return _ProviderIds(ids, _namespaces(ids))


def _namespaces(ids: Iterable[str]) -> frozenset[str]:
    ids = frozenset(ids)
    return frozenset(i.split(".")[0] for i in ids if "." in i) - ids


@functools.cache
def _decorators() -> dict[str, tuple[str | None, str | None]]:
    """``kind -> (Airflow 2 owner, Airflow 3 owner)``, ``None`` meaning built into Airflow."""
    out = {}
    for kind, airflow2, airflow3 in read_table(
        TASK_DECORATORS_FILE, ("kind", "airflow2", "airflow3")
    ):
        if kind is not None:
            out[kind] = (
                None if airflow2 == _CORE else airflow2,
                None if airflow3 == _CORE else airflow3,
            )
    return out


@functools.cache
def _shim_modules() -> frozenset[str]:
    rows = read_table(SHIM_MODULES_FILE, SHIM_MODULE_COLUMNS)
    return frozenset(row[0] for row in rows if row[0] is not None)


@record
class _ModuleMoves:
    rows: tuple[Move, ...]
    by_name: dict[str, Move]
    provider2: str | None
    provider3: str | None


MOVE_COLUMNS = (
    "old_module",
    "old_name",
    "new_module",
    "new_name",
    "distribution",
    "removed",
    "airflow2_distribution",
    "source",
    "note",
)


@functools.cache
def _moves_table() -> SortedTable:
    return SortedTable(IMPORT_MOVES_FILE, MOVE_COLUMNS)


def _moves_of(module: str) -> _ModuleMoves:
    """The moves of one old module, and the providers most of its paths moved to.

    Only the modules the table has rows for are kept: the names asked about come from the files
    linted, and in the language server from what is being typed, where every half-written
    import is a new name. Asking about another name costs one ``bisect``.
    """
    return _listed_moves(module) if _moves_table().has(module) else _no_moves()


@functools.cache  # keyed by the table's own old modules only: bounded by the shipped data
def _listed_moves(module: str) -> _ModuleMoves:
    rows = tuple(_move(row) for row in _moves_table().rows(module))
    return _ModuleMoves(
        rows=rows,
        by_name={move.old_name or _WILDCARD: move for move in rows},
        # A removed module cannot be satisfied by installing anything: moved_import reports it.
        provider3=_most_common(m.distribution for m in rows if not m.removed),
        provider2=_most_common(m.airflow2_distribution for m in rows),
    )


@functools.cache  # made on first use, as records are: importing the module builds none
def _no_moves() -> _ModuleMoves:
    return _ModuleMoves(rows=(), by_name={}, provider2=None, provider3=None)


def _move(row: list[str | None]) -> Move:
    old_module, old_name, new_module, new_name, dist, removed, dist2, source, note = row
    if old_module is None or old_name is None:
        raise RuntimeError(f"{IMPORT_MOVES_FILE}: row without an old path")
    return Move(
        old_module=old_module,
        old_name=old_name,
        new_module=new_module,
        new_name=new_name,
        distribution=dist,
        removed=removed == "yes",
        airflow2_distribution=dist2,
        source=source or "",
        note=note or "",
    )


def _most_common(values: Iterable[str | None]) -> str | None:
    counts = Counter(v for v in values if v is not None)
    if not counts:
        return None
    # Ties go to the alphabetically first name so the answer does not depend on row order.
    return min(counts, key=lambda v: (-counts[v], v))


def _lookup(module: str, name: str | None) -> Move | None:
    by_name = _moves_of(module).by_name
    if name is not None:
        exact = by_name.get(name)
        if exact is not None:
            return exact
    row = by_name.get(_WILDCARD)
    if row is None:
        return None
    if name is None:  # the module itself
        new_name = None if row.new_name == _WILDCARD else row.new_name
    else:
        new_name = name if row.new_name == _WILDCARD else row.new_name
    return replace(row, old_name=name, new_name=new_name)
