"""DRL204: Airflow import paths the deployment's Airflow version no longer has, or moved away.

Under Airflow 3 (the default when the inventory says nothing) an Airflow 2 path either is gone,
so the file fails to import, or still imports through a deprecation shim that needs the provider
the name moved to (semantics 6.3; ``data/import_moves.tsv``). Under Airflow 2 the only such paths
are the Airflow 3 ones: ``airflow.sdk`` arrived with Airflow 3.0.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from dagroute_lint.catalog.providers import Move, import_moves, moved_import, shim_module_names
from dagroute_lint.diagnostics import Diagnostic, ImportFix
from dagroute_lint.model import ImportSite
from dagroute_lint.rules.base import Context, Rule

SDK_PACKAGE = "airflow.sdk"


def check_airflow_imports(context: Context) -> Iterator[Diagnostic]:
    for site in _sites(context):
        if context.airflow_major >= 3:
            yield from _moved(context, site)
        else:
            yield from _too_new(context, site)


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


def _moved(context: Context, site: ImportSite) -> Iterator[Diagnostic]:
    shim_names = shim_module_names(site.module)
    for name in site.names or (None,):
        move = moved_import(site.module, name)
        if move is None:
            if name is not None and shim_names is not None and name not in shim_names:
                yield context.report(site.position, _not_in_shim(site.module, name))
            continue
        if _plain_reexport(move):
            continue
        fix = None
        if name is not None and move.old_module == site.module and move.drop_in:
            assert move.new_module is not None and move.new_name is not None
            fix = ImportFix(site.module, name, move.new_module, move.new_name)
        yield context.report(site.position, _moved_message(move, site, name), fix=fix)


def _plain_reexport(move: Move) -> bool:
    """A name Airflow 3 still exports from its old home without a deprecation warning
    (``from airflow import DAG``, ``from airflow.models import DAG``: lazy re-exports, read from
    the real package by the generator), and that needs no provider: nothing fails or warns."""
    return not move.removed and not move.distribution and "plain re-export" in move.note


def _not_in_shim(module: str, name: str) -> str:
    targets = {m.new_module for m in import_moves() if m.old_module == module and m.new_module}
    went = f"; its other names moved to {targets.pop()}" if len(targets) == 1 else ""
    return (
        f"'{module}.{name}' is gone in Airflow 3: '{module}' is only a deprecation shim that "
        f"does not forward '{name}', so the file fails to import (ImportError){went}"
    )


def _moved_message(move: Move, site: ImportSite, name: str | None) -> str:
    # ``from airflow.operators import dummy`` finds the row of the module ``...operators.dummy``.
    old = f"{site.module}.{name}" if name is not None else site.module
    if move.old_module != site.module:
        old = move.old_module
    new = move.new_path
    if new is not None and move.distribution:
        new += f" (needs {move.distribution})"
    if move.removed:
        gone = (
            f"'{old}' is gone in Airflow 3 (there is no module '{move.old_module}'), so the file "
            "fails to import"
        )
        if new is None:
            return f"{gone}; {move.note or 'nothing replaces it'}"
        note = f"; {move.note}" if move.note and not move.drop_in else ""
        return f"{gone}; use {new}{note}"
    # Plain re-exports that need nothing are not reported (``_plain_reexport``); the rest of the
    # old homes are shims that warn and are slated for removal.
    how = "a plain re-export" if "re-export" in move.note else "a deprecation shim"
    if move.drop_in:
        return f"'{old}' moved to {new} in Airflow 3; the old path works only through {how}"
    return (
        f"'{old}' moved in Airflow 3: {how} forwards it to {new}, which is not a drop-in "
        "replacement; check its use before switching"
    )


def _too_new(context: Context, site: ImportSite) -> Iterator[Diagnostic]:
    if site.module != SDK_PACKAGE and not site.module.startswith(SDK_PACKAGE + "."):
        return
    paths = _airflow2_paths()
    olds = [paths[site.module, name] for name in site.names if (site.module, name) in paths]
    instead = f"; on Airflow 2 import {', '.join(olds)} instead" if olds else ""
    yield context.report(
        site.position,
        f"'{site.module}' does not exist in Airflow 2 (it arrived with Airflow 3.0): the file "
        f"fails to import{instead}",
    )


@functools.cache
def _airflow2_paths() -> dict[tuple[str, str], str]:
    """``(airflow.sdk path, name) -> the shortest Airflow 2 path`` that Airflow 3 forwards to it.

    A row whose old path still imports in Airflow 3 existed in Airflow 2, so its old path is a
    working Airflow 2 spelling of the same object (``airflow.sdk.DAG`` is ``airflow.DAG``).
    """
    found: dict[tuple[str, str], str] = {}
    for move in import_moves():
        if move.removed or not move.drop_in or move.new_module is None:
            continue
        if move.new_name is None or move.old_name is None or move.old_name == "*":
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
