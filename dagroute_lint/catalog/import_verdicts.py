"""What importing an Airflow path really does in each checked release: fails, warns or works."""

from __future__ import annotations

import functools

from dagroute_lint.catalog.data_files import SortedTable
from dagroute_lint.records import record

# The shipped table, written by scripts/generate_import_verdicts.py by importing every known path
# in a real venv of each release: the newest patch of each minor version (a patch release does not
# remove or deprecate an import path, so it speaks for its minor version).
VERDICTS_FILE = "import_verdicts.tsv"
CHECKED_RELEASES = (
    "2.2.5",
    "2.3.4",
    "2.4.3",
    "2.5.3",
    "2.6.3",
    "2.7.3",
    "2.8.4",
    "2.9.3",
    "2.10.5",
    "2.11.2",
    "3.0.6",
    "3.1.8",
    "3.2.2",
    "3.3.2",
)
VERDICT_COLUMNS = ("module", "name", *(f"airflow_{release}" for release in CHECKED_RELEASES))
MODULE = "-"  # the name column of a module's own row (``import module``)
# A cell holding the verdict of the release before it: most paths keep their verdict from one
# release to the next, and the table is less than half its size written so.
SAME = "="

FAILS = "fails"
WARNS = "warns"
WORKS = "works"


@record
class Checked:
    """The checked release whose verdicts decide for a deployment.

    ``asked`` is the deployment's own version when no release of its minor version was checked
    (Airflow 2.1): then ``version`` is the nearest checked release of its major version, and its
    verdicts are an estimate for the deployment, not a proof.
    """

    version: str
    asked: str | None = None

    @property
    def exact(self) -> bool:
        return self.asked is None

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])


def newest_checked(airflow_major: int) -> Checked:
    """The newest checked release of a major version: what a deployment that names only its
    major version (or, for Airflow 3, none) is judged against."""
    return Checked(_text(max(_releases_of(airflow_major))))


def checked_release(release: tuple[int, ...] | None, airflow_major: int) -> Checked:
    """The checked release of the deployment's minor version (``release``, from the inventory's
    ``airflow_version``), else the nearest one of its major version, marked as an estimate."""
    if release is None or len(release) < 2:
        return newest_checked(release[0] if release else airflow_major)
    minor = release[:2]
    releases = _releases_of(release[0])
    for candidate in releases:
        if candidate[:2] == minor:
            return Checked(_text(candidate))
    nearest = min(releases, key=lambda candidate: (abs(candidate[1] - minor[1]), candidate))
    return Checked(_text(nearest), _text(release))


def import_verdict(module: str, name: str | None, checked: Checked) -> Verdict | None:
    """What ``from module import name`` (``import module`` for ``None``) does, or ``None``.

    ``None`` means the generator never tried the path: the linter knows nothing about it. The
    table stores a name only where its verdict differs from its module's in some release, and
    every replacement path the moves table names: so a name without a row in a module that fails
    or warns shares that verdict, and one in a module that works is unknown (it may not exist).
    ``from package import submodule`` is found under the submodule's own row too.
    """
    column = CHECKED_RELEASES.index(checked.version)
    rows = _rows_of(module)
    if name is not None:
        row = rows.get(name)
        if row is not None:
            return _parse(row[column], checked)
        submodule = _rows_of(f"{module}.{name}").get(MODULE)
        if submodule is not None:
            return _parse(submodule[column], checked)
    own = rows.get(MODULE)
    if own is None:
        return None
    verdict = _parse(own[column], checked)
    if name is not None and verdict.kind == WORKS:
        return None
    return verdict


@record
class Verdict:
    """One import's outcome in one Airflow release, as the generator saw it.

    ``kind`` is ``fails``, ``warns`` or ``works``, or ``None`` when the import failed on a provider
    that no venv of that release had (``needs``): then nothing is known. ``detail`` is the
    exception (``ModuleNotFoundError``) or the warning category (``RemovedInAirflow3Warning``).
    ``checked`` is the release it was seen in, and the deployment's version it stands for.
    """

    kind: str | None
    detail: str
    needs: str | None
    checked: Checked

    @property
    def version(self) -> str:
        return self.checked.version


def tried_paths() -> frozenset[tuple[str, str | None]]:
    """Every path with a row of its own: ``(module, None)`` for modules, ``(module, name)``."""
    return frozenset((row[0], row[1]) for row in _table().all_rows() if row[0] is not None)


def _parse(cell: str, checked: Checked) -> Verdict:
    parts = cell.split(":")
    needs = parts[parts.index("needs") + 1] if "needs" in parts else None
    if parts[0] == "needs":
        return Verdict(None, "", needs, checked)
    if parts[0] not in (FAILS, WARNS, WORKS):
        return Verdict(None, cell, needs, checked)
    detail = parts[1] if len(parts) > 1 and parts[1] != "needs" else ""
    return Verdict(parts[0], detail, needs, checked)


def _releases_of(airflow_major: int) -> list[tuple[int, ...]]:
    return [
        release
        for release in (tuple(int(p) for p in v.split(".")) for v in CHECKED_RELEASES)
        if release[0] == airflow_major
    ]


def _text(release: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in release)


@functools.cache
def _table() -> SortedTable:
    return SortedTable(VERDICTS_FILE, VERDICT_COLUMNS)


def _rows_of(module: str) -> dict[str, tuple[str, ...]]:
    """The module's rows by name (``-`` for the module's own row), one cell per checked release.

    Only the modules the table has rows for are kept, as in ``providers._moves_of``: the names
    asked about include every half-written import typed into the language server.
    """
    if not _table().has(module):
        return {}
    return _listed_rows(module)


@functools.cache  # keyed by the table's own modules only: bounded by the shipped data
def _listed_rows(module: str) -> dict[str, tuple[str, ...]]:
    out = {}
    for _, name, *cells in _table().rows(module):
        if None in cells or len(cells) != len(CHECKED_RELEASES) or cells[0] == SAME:
            raise RuntimeError(f"{VERDICTS_FILE}: incomplete row for {module}")
        out[name or MODULE] = expand([cell for cell in cells if cell is not None])
    return out


def expand(cells: list[str]) -> tuple[str, ...]:
    """A row's verdicts with each ``=`` replaced by the verdict of the release before it."""
    out: list[str] = []
    for cell in cells:
        out.append(out[-1] if cell == SAME else cell)
    return tuple(out)


def compact(cells: tuple[str, ...]) -> tuple[str, ...]:
    """The row as the table writes it: ``=`` for a verdict equal to the release before's."""
    return tuple(SAME if i and cell == cells[i - 1] else cell for i, cell in enumerate(cells))
