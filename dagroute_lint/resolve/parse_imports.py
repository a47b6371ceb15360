"""What importing a file runs at module level: its own imports and, transitively, those of the
repository modules it imports, as Python executes them when the DAG processor loads the file."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from dagroute_lint.model import ImportSite, Module
from dagroute_lint.records import record


@record
class ReachedImport:
    """An import that runs when the file is loaded.

    ``site`` is the file's own module-level import that leads to it, where a report belongs;
    ``target`` is the import itself, in ``path`` (the file's own path when ``via`` is empty);
    ``via`` names the repository modules executed on the way, outermost first.
    """

    site: ImportSite
    target: ImportSite
    path: str
    via: tuple[str, ...] = ()

    @property
    def chain(self) -> str:
        """How the import was reached, for a message: empty when it is the file's own, else
        ``, which imports 'x' (dags/common/storage.py, line 1)``."""
        if not self.via:
            return ""
        runs = self.via[-1]
        through = "" if runs == self.site.module else f", which runs '{runs}'"
        return (
            f"{through}, which imports '{self.target.module}' "
            f"({self.path}, line {self.target.position.line})"
        )


def executed_modules(site: ImportSite) -> Iterator[str]:
    """The modules an import statement may execute: every dotted prefix (``import a.b`` runs
    ``a`` first), and for ``from m import n`` the submodule ``m.n`` if there is one."""
    parts = site.module.split(".")
    for end in range(1, len(parts) + 1):
        yield ".".join(parts[:end])
    for name in site.names:
        yield f"{site.module}.{name}"


def reached_imports(
    module: Module, lookup: Callable[[str], Module | None]
) -> Iterator[ReachedImport]:
    """Every unguarded module-level import that runs when ``module`` is loaded, once each.

    Imports inside ``try``/``except ImportError`` or ``if TYPE_CHECKING:`` cannot fail the load,
    and neither can anything they lead to, so the walk does not follow them. A repository module
    reached twice is walked once (a cycle ends there too), with the first site that reached it.
    ``lookup`` finds a repository module by name (``None`` for any other).
    """
    seen: set[str] = {module.module_name}
    for site in module.imports:
        if site.scope != "module" or site.guarded:
            continue
        yield ReachedImport(site, site, module.path)
        pending: list[tuple[str, tuple[str, ...]]] = [(n, ()) for n in executed_modules(site)]
        while pending:
            name, via = pending.pop(0)
            if name in seen:
                continue
            seen.add(name)
            found = lookup(name)
            if found is None or found.syntax_error is not None:
                continue
            chain: tuple[str, ...] = (*via, name)
            for inner in found.imports:
                if inner.scope != "module" or inner.guarded:
                    continue
                yield ReachedImport(site, inner, found.path, chain)
                pending.extend((next_name, chain) for next_name in executed_modules(inner))
