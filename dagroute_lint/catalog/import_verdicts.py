"""What importing an Airflow path really does in each supported Airflow: fails, warns or works."""

from __future__ import annotations

import functools

from dagroute_lint.catalog.data_files import SortedTable
from dagroute_lint.records import record

# The shipped table, written by scripts/generate_import_verdicts.py by importing every known path
# in a real venv of each version.
VERDICTS_FILE = "import_verdicts.tsv"
AIRFLOW_2_CHECKED = "2.10.5"
AIRFLOW_3_CHECKED = "3.3.2"
VERDICT_COLUMNS = ("module", "name", f"airflow_{AIRFLOW_2_CHECKED}", f"airflow_{AIRFLOW_3_CHECKED}")
MODULE = "-"  # the name column of a module's own row (``import module``)

FAILS = "fails"
WARNS = "warns"
WORKS = "works"


@record
class Verdict:
    """One import's outcome in one Airflow version, as the generator saw it.

    ``kind`` is ``fails``, ``warns`` or ``works``, or ``None`` when the import failed on a provider
    that no venv of that version had (``needs``): then nothing is known. ``detail`` is the exception
    (``ModuleNotFoundError``) or the warning category (``RemovedInAirflow3Warning``).
    """

    kind: str | None
    detail: str
    needs: str | None
    version: str


def checked_version(airflow_major: int) -> str:
    """The Airflow release whose imports decide for a deployment of that major version."""
    return AIRFLOW_3_CHECKED if airflow_major >= 3 else AIRFLOW_2_CHECKED


def import_verdict(module: str, name: str | None, airflow_major: int) -> Verdict | None:
    """What ``from module import name`` (``import module`` for ``None``) does, or ``None``.

    ``None`` means the generator never tried the path: the linter knows nothing about it. The
    table stores a name only where its verdict differs from its module's, and every replacement
    path the moves table names: so a name without a row in a module that fails or warns shares that
    verdict, and one in a module that works is unknown (it may not exist). ``from package import
    submodule`` is found under the submodule's own row too.
    """
    column = 0 if airflow_major < 3 else 1
    rows = _rows_of(module)
    if name is not None:
        row = rows.get(name)
        if row is not None:
            return _parse(row[column], column)
        submodule = _rows_of(f"{module}.{name}").get(MODULE)
        if submodule is not None:
            return _parse(submodule[column], column)
    own = rows.get(MODULE)
    if own is None:
        return None
    verdict = _parse(own[column], column)
    if name is not None and verdict.kind == WORKS:
        return None
    return verdict


def tried_paths() -> frozenset[tuple[str, str | None]]:
    """Every path with a row of its own: ``(module, None)`` for modules, ``(module, name)``."""
    return frozenset(
        (module, name) for module, name, _, _ in _table().all_rows() if module is not None
    )


def _parse(cell: str, column: int) -> Verdict:
    version = (AIRFLOW_2_CHECKED, AIRFLOW_3_CHECKED)[column]
    parts = cell.split(":")
    needs = parts[parts.index("needs") + 1] if "needs" in parts else None
    if parts[0] == "needs":
        return Verdict(None, "", needs, version)
    if parts[0] not in (FAILS, WARNS, WORKS):
        return Verdict(None, cell, needs, version)
    detail = parts[1] if len(parts) > 1 and parts[1] != "needs" else ""
    return Verdict(parts[0], detail, needs, version)


@functools.cache
def _table() -> SortedTable:
    return SortedTable(VERDICTS_FILE, VERDICT_COLUMNS)


def _rows_of(module: str) -> dict[str, tuple[str, str]]:
    """The module's rows by name (``-`` for the module's own row).

    Only the modules the table has rows for are kept, as in ``providers._moves_of``: the names
    asked about include every half-written import typed into the language server.
    """
    if not _table().has(module):
        return {}
    return _listed_rows(module)


@functools.cache  # keyed by the table's own modules only: bounded by the shipped data
def _listed_rows(module: str) -> dict[str, tuple[str, str]]:
    out = {}
    for _, name, airflow2, airflow3 in _table().rows(module):
        if airflow2 is None or airflow3 is None:
            raise RuntimeError(f"{VERDICTS_FILE}: incomplete row for {module}")
        out[name or MODULE] = (airflow2, airflow3)
    return out
