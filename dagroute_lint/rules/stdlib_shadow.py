"""DRL010: an import meant for a repository module that the standard library's module hides.

Airflow appends its import roots to ``sys.path`` after the standard library (see
``catalog/stdlib_first.py``), so with ``dags/queue.py`` in the DAG folder, ``from queue import
ROUTING_QUEUE`` asks the standard library's ``queue`` and fails, and so does ``import
email.helpers`` with a ``dags/email/`` package. Verified with DagBag in Airflow 2.10.5 and 3.3.2
(``tests/conformance/test_dag_integrity.py``): ``ImportError: cannot import name
'ROUTING_QUEUE' from 'queue' (.../lib/python3.11/queue.py)`` and ``ModuleNotFoundError: No
module named 'email.helpers'``; the file is recorded as an import error. Only what certainly
fails is reported: a name or a submodule the standard library's module lacks. ``import types``
followed by ``types.POOL`` fails too, but only where the attribute is read: not reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from dagroute_lint.catalog.stdlib_first import has_name
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import ImportSite
from dagroute_lint.rules.base import Context, Rule


def _lacking(site: ImportSite) -> str | None:
    """What of ``site`` the standard library lacks, as Python names it; ``None``: it loads (or
    this cannot be decided here)."""
    parts = site.module.split(".")
    for end in range(1, len(parts)):
        # ``os.path`` is no file of the standard library, but ``os`` binds it: a name counts.
        found = has_name(".".join(parts[:end]), parts[end])
        if found is None:
            return None
        if not found:
            return f"ModuleNotFoundError: No module named '{'.'.join(parts[: end + 1])}'"
    for name in site.names:
        if name != "*" and has_name(site.module, name) is False:
            return f"ImportError: cannot import name '{name}' from '{site.module}'"
    return None


def check_stdlib_shadow(context: Context) -> Iterator[Diagnostic]:
    locations = context.repository.locations
    if locations is None:
        return
    for site in context.module.imports:
        if site.scope != "module" or site.guarded or site.relative:
            continue
        mine = locations.shadowed(site.module)
        if mine is None:
            continue
        error = _lacking(site)
        if error is None:
            continue
        top = site.module.partition(".")[0]
        yield context.report(
            site.position,
            f"'{top}' is the standard library's module, not the repository's {_shown(mine)}: "
            "Airflow puts the "
            f"DAG folder on sys.path after the standard library, so this import fails when "
            f"the file is parsed ({error}) and the file does not load; rename "
            f"{_shown(mine)} (to {top}_settings, for instance)",
            kind="parse",
            item=site.module,
        )


def _shown(place: Path) -> str:
    """The repository's module as found on its import root: ``queue.py``, ``email/``."""
    return place.name if place.suffix == ".py" else f"{place.name}/"


STDLIB_SHADOW = Rule(
    code="DRL010",
    name="stdlib-shadowed-module",
    summary="an import of a repository module named like a standard-library module, which wins",
    boundary="parse",
    check=check_stdlib_shadow,
)
