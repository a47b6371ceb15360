"""Resolve ``import`` statements to the qualified names they bind, relative imports included."""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node


def absolute_module(
    relative_level: int, module: str | None, current: str, is_package: bool
) -> str | None:
    """The absolute module a ``from ...x import`` names, or ``None`` above the top package."""
    if relative_level == 0:
        return module
    parts = current.split(".") if current else []
    if not is_package:
        parts = parts[:-1]
    drop = relative_level - 1
    if drop > len(parts):
        return None
    base = parts[: len(parts) - drop] if drop else parts
    if module:
        base = [*base, module]
    return ".".join(base) or None


def import_bindings(
    statement: cst.Import | cst.ImportFrom, current: str, is_package: bool
) -> tuple[list[tuple[str, str]], list[str]]:
    """Pairs ``(local name, qualified name)`` bound by the statement, and the modules it imports.

    ``import a.b.c`` binds ``a`` to ``a`` (Python binds the top package) and imports ``a.b.c``;
    ``import a.b as x`` binds ``x`` to ``a.b``; ``from a import b`` binds ``b`` to ``a.b``.
    """
    bindings: list[tuple[str, str]] = []
    modules: list[str] = []
    if isinstance(statement, cst.Import):
        for alias in statement.names:
            name = get_full_name_for_node(alias.name)
            if name is None:
                continue
            modules.append(name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                bindings.append((alias.asname.name.value, name))
            else:
                top = name.split(".", 1)[0]
                bindings.append((top, top))
        return bindings, modules
    written = get_full_name_for_node(statement.module) if statement.module is not None else None
    base = absolute_module(len(statement.relative), written, current, is_package)
    if base is None:
        return bindings, modules
    modules.append(base)
    if isinstance(statement.names, cst.ImportStar):
        return bindings, modules
    for alias in statement.names:
        name = get_full_name_for_node(alias.name)
        if name is None:
            continue
        local = (
            alias.asname.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name)
            else name
        )
        bindings.append((local, f"{base}.{name}"))
    return bindings, modules


def imported_names(statement: cst.Import | cst.ImportFrom) -> tuple[str, ...]:
    """The names ``from m import a, b as c`` imports, as written (``a``, ``b``); none for ``*``."""
    if isinstance(statement, cst.Import) or isinstance(statement.names, cst.ImportStar):
        return ()
    names = (get_full_name_for_node(alias.name) for alias in statement.names)
    return tuple(name for name in names if name is not None)


def is_relative(statement: cst.Import | cst.ImportFrom) -> bool:
    return isinstance(statement, cst.ImportFrom) and len(statement.relative) > 0
