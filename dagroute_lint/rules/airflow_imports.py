"""DRL204: Airflow imports that fail, or work only through a deprecation shim, on the deployment.

The verdict is what importing the path really did in the release checked for the deployment's
minor version (``catalog/import_verdicts``: the newest patch of each minor version from 2.2 on).
An inventory that names no version has nothing judged in its place (DRL902 says so): only an
import that fails on every checked release is reported. Its severity is the failure's: an import
that fails is an error (the file does not load), one that works through a deprecation shim a
warning. A version with no release of its own checked is judged on the nearest one, which is only
an estimate for it: the message says so, and nothing is an error on that basis. A replacement
comes from the moves table (``data/import_moves.tsv``) and is named, or written by ``--fix``, only
if it imports without a warning on that same release.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from dagroute_lint.catalog.import_verdicts import (
    CHECKED_RELEASES,
    FAILS,
    WARNS,
    WORKS,
    Checked,
    Verdict,
    checked_release,
    import_verdict,
    tried_paths,
)
from dagroute_lint.catalog.providers import (
    Move,
    import_moves,
    module_moves,
    moved_import,
    shim_module_names,
)
from dagroute_lint.diagnostics import Diagnostic, ImportFix, Severity
from dagroute_lint.model import ImportSite
from dagroute_lint.records import record
from dagroute_lint.rules.base import Context, Rule

SDK_PACKAGE = "airflow.sdk"
PROVIDERS = "airflow.providers"


def check_airflow_imports(context: Context) -> Iterator[Diagnostic]:
    sites = _sites(context)
    if not sites:
        return
    release = context.inventory.airflow_release if context.inventory is not None else None
    if release is None and context.inventory is not None:
        # The inventory leaves the version open (DRL902 says so): nothing is assumed in its
        # place, so only an import that fails on every checked release is certain to fail.
        for site in sites:
            for name in site.names or (None,):
                yield from _fails_everywhere(context, site, name)
        return
    checked = checked_release(release, context.airflow_major)
    for site in sites:
        for name in site.names or (None,):
            yield from _check(context, checked, site, name)


def _fails_everywhere(context: Context, site: ImportSite, name: str | None) -> Iterator[Diagnostic]:
    """With no version known: the import, judged on each checked release, if it fails on all."""
    if site.module == PROVIDERS or site.module.startswith(PROVIDERS + "."):
        return
    for version in CHECKED_RELEASES:
        verdict = _verdict(site.module, name, Checked(version))
        if verdict is None or verdict.kind != FAILS:
            return
    yield from _check(context, Checked(CHECKED_RELEASES[-1]), site, name)


def _sites(context: Context) -> list[ImportSite]:
    """Absolute imports of ``airflow`` that can fail the file, each statement once.

    A guarded import (``try``/``except ImportError``, ``TYPE_CHECKING``) cannot fail the file and
    is usually the fallback half of a compatibility shim, which must keep the old path.
    """
    sites: dict[tuple[int, int, str], ImportSite] = {}
    candidates = [*context.module.imports, *(s for t in context.module.tasks for s in t.imports)]
    for site in candidates:
        if site.guarded or site.relative:
            continue
        if site.module != "airflow" and not site.module.startswith("airflow."):
            continue
        sites.setdefault((site.position.line, site.position.column, site.module), site)
    return list(sites.values())


def _check(
    context: Context, checked: Checked, site: ImportSite, name: str | None
) -> Iterator[Diagnostic]:
    """One imported name (or the module, for ``import airflow.x``), judged by what importing it
    really did in the Airflow release checked for the deployment's version."""
    if site.module == PROVIDERS or site.module.startswith(PROVIDERS + "."):
        # Whether a provider path imports depends on the provider's version, not Airflow's (and
        # DRL201 reports a provider the runtime lacks): only replacements into providers are
        # checked here, against the provider releases the generator imported them in.
        return
    verdict = _verdict(site.module, name, checked)
    if verdict is None or verdict.kind not in (FAILS, WARNS):
        if verdict is None and checked.major >= 3 and name is not None:
            yield from _not_in_shim(context, checked, site, name)
        return
    old = f"{site.module}.{name}" if name is not None else site.module
    replacement = _replacement(site.module, name, checked)
    fix = None
    # A replacement checked on another release than the deployment's may not be there: named, but
    # never written by ``--fix``.
    if replacement is not None and replacement.fix and checked.exact:
        assert name is not None and replacement.name is not None
        fix = ImportFix(site.module, name, replacement.module, replacement.name)
    message = _message(old, verdict, replacement, site.module, name)
    severity = _severity(verdict.kind == FAILS, checked)
    yield context.report(
        site.position, message, kind="airflow-version", item=old, fix=fix, severity=severity
    )


def _severity(fails: bool, checked: Checked) -> Severity:
    """An error only for an import that fails on the deployment's own version: the file does not
    load. A deprecated import still loads, and a verdict of another release is an estimate."""
    return "error" if fails and checked.exact else "warning"


def _verdict(module: str, name: str | None, checked: Checked) -> Verdict | None:
    """The path's own verdict; else a failing enclosing package's (``airflow.contrib.x`` fails
    because ``airflow.contrib`` does)."""
    verdict = import_verdict(module, name, checked)
    if verdict is not None:
        return verdict
    parts = module.split(".")
    for size in range(len(parts) - 1, 0, -1):
        package = import_verdict(".".join(parts[:size]), None, checked)
        if package is not None and package.kind == FAILS:
            return package
        if package is not None:
            return None
    return None


@record
class _Replacement:
    """A path to use instead, checked to import without a warning on the same Airflow release."""

    module: str
    name: str | None
    distribution: str | None
    fix: bool  # the very object the old path named, so ``--fix`` may write it
    note: str

    @property
    def path(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


def _replacement(module: str, name: str | None, checked: Checked) -> _Replacement | None:
    if checked.major < 3:
        return _airflow2_replacement(module, name, checked)
    move = moved_import(module, name)
    if move is None or move.new_module is None:
        return None
    note = move.note if move.note and not _plain_reexport(move) else ""
    new_name = move.new_name
    if name is None or move.old_module != module:
        # ``import old.module`` or ``from old import module``: the successor module, if it imports.
        if not _works(move.new_module, None, checked):
            return None
        return _Replacement(move.new_module, None, move.distribution, False, note)
    if new_name is None:
        # Only the successor module is known: name it only if the name is really there.
        if not _works(move.new_module, name, checked):
            return None
        return _Replacement(move.new_module, name, move.distribution, False, note)
    if not _works(move.new_module, new_name, checked):
        return None
    fix = name is not None and move.old_module == module and move.drop_in
    return _Replacement(move.new_module, new_name, move.distribution, fix, note)


def _airflow2_replacement(module: str, name: str | None, checked: Checked) -> _Replacement | None:
    """On Airflow 2: the Airflow 2 spelling of the object an Airflow 3 path names (``airflow.DAG``
    for ``airflow.sdk.DAG``), or of where a deprecated Airflow 2 path went (``airflow.operators.
    bash.BashOperator`` for ``airflow.operators.bash_operator.BashOperator``), if it imports there
    without a warning. Only the second is a fix: both of its steps are aliases Airflow made."""
    if name is None:
        return None
    move = moved_import(module, name)
    if move is not None and move.new_module is not None and move.new_name is not None:
        key, fix = (move.new_module, move.new_name), move.drop_in and move.old_module == module
    else:
        key, fix = (module, name), False
    path = _airflow2_paths(checked.version).get(key)
    if path is None or path == f"{module}.{name}":
        return None
    old_module, _, old_name = path.rpartition(".")
    return _Replacement(old_module, old_name, None, fix, "")


def _works(module: str, name: str | None, checked: Checked) -> bool:
    verdict = import_verdict(module, name, checked)
    return verdict is not None and verdict.kind == WORKS


def fix_targets(checked: Checked) -> frozenset[tuple[str, str]]:
    """Every ``(module, name)`` that ``--fix`` can write for a deployment judged on ``checked``.

    The candidates are every path the tables know (each old path of the moves table, each
    name of a ``*`` row that its new module has, each imported path), a superset of the imports
    a fix can start from; the conformance suite imports every target in a real Airflow.
    """
    candidates = {(m, n) for m, n in tried_paths() if n is not None}
    for move in import_moves():
        if move.old_name is not None and move.old_name != "*":
            candidates.add((move.old_module, move.old_name))
    by_module: dict[str, set[str]] = {}
    for module, name in candidates:
        by_module.setdefault(module, set()).add(name)
    for move in import_moves():
        if move.old_name == "*" and move.new_module is not None:
            candidates |= {(move.old_module, n) for n in by_module.get(move.new_module, ())}
    targets = set()
    for module, name in candidates:
        found = _replacement(module, name, checked)
        if found is not None and found.fix and found.name is not None:
            targets.add((found.module, found.name))
    return frozenset(targets)


def _plain_reexport(move: Move) -> bool:
    return "plain re-export" in move.note


def _message(
    old: str, verdict: Verdict, replacement: _Replacement | None, module: str, name: str | None
) -> str:
    if verdict.kind == FAILS:
        said = f"'{old}' fails to import on Airflow {verdict.version} ({verdict.detail})"
        if module.split(".")[:2] == SDK_PACKAGE.split("."):
            said += ": airflow.sdk arrived with Airflow 3.0"
        said += f", {_consequence(verdict.checked)}"
    else:
        said = (
            f"'{old}' imports on Airflow {verdict.version} only through a deprecation shim "
            f"({verdict.detail}) slated for removal{_estimate(verdict.checked)}"
        )
    if replacement is None:
        move = moved_import(module, name) if verdict.version[0] == "3" else None
        if move is not None and move.removed and move.note and move.new_module is None:
            return f"{said}; {move.note}"
        return f"{said}; no replacement that imports on Airflow {verdict.version} is known"
    use = replacement.path
    if replacement.distribution:
        use += f" (needs {replacement.distribution})"
    if not replacement.fix and replacement.note:
        use += f"; {replacement.note}"
    elif not replacement.fix and replacement.name is not None and verdict.version[0] == "3":
        use += "; not a drop-in replacement, check its use before switching"
    return f"{said}; use {use}"


def _consequence(checked: Checked) -> str:
    """What a failing import does to the file: certain on the deployment's own version, likely
    (and said to be an estimate) on a version judged by the nearest checked release."""
    if checked.exact:
        return "so the file does not load"
    return f"so the file may not load{_estimate(checked)}"


def _estimate(checked: Checked) -> str:
    if checked.exact:
        return ""
    return (
        f" (Airflow {checked.asked} was not checked: judged on {checked.version}, the nearest "
        "checked release)"
    )


def _not_in_shim(
    context: Context, checked: Checked, site: ImportSite, name: str
) -> Iterator[Diagnostic]:
    """A name no table knows, imported from a module Airflow 3 has only as a deprecation shim
    (which serves exactly its table's names): the import fails."""
    shim_names = shim_module_names(site.module)
    if shim_names is None or name in shim_names:
        return
    targets = {m.new_module for m in module_moves(site.module) if m.new_module}
    went = f"; its other names moved to {targets.pop()}" if len(targets) == 1 else ""
    path = f"{site.module}.{name}"
    yield context.report(
        site.position,
        f"'{path}' fails to import on Airflow 3 (ImportError): '{site.module}' is "
        f"only a deprecation shim that does not forward '{name}', {_consequence(checked)}{went}",
        kind="airflow-version",
        item=path,
        severity=_severity(True, checked),
    )


@functools.cache  # keyed by the checked releases only (not by the deployment's own version)
def _airflow2_paths(version: str) -> dict[tuple[str, str], str]:
    """``(Airflow 3 path, name) -> the shortest Airflow 2 path`` that Airflow 3 forwards to it.

    A row whose old path still imports in Airflow 3 existed in Airflow 2, so its old path is a
    candidate Airflow 2 spelling of the same object (``airflow.sdk.DAG`` is ``airflow.DAG``),
    kept only if it imports without a warning on the checked Airflow 2 release ``version``.
    """
    checked = Checked(version)
    found: dict[tuple[str, str], str] = {}
    for move in import_moves():
        if move.removed or not move.drop_in or move.new_module is None:
            continue
        if move.new_name is None or move.old_name is None or move.old_name == "*":
            continue
        if not _works(move.old_module, move.old_name, checked):
            continue
        key = (move.new_module, move.new_name)
        path = f"{move.old_module}.{move.old_name}"
        if key not in found or (len(path), path) < (len(found[key]), found[key]):
            found[key] = path
    return found


IMPORT_REMOVED_IN_AIRFLOW = Rule(
    code="DRL204",
    name="import-removed-in-airflow",
    summary="import path the deployment's Airflow version no longer has, or that moved",
    boundary="parse",
    check=check_airflow_imports,
)
