"""The statements that bind each module-level name, in order: what a circular import can see.

A module imported while it is still running holds only the names bound above the line it is
paused at, so ``from m import n`` on it fails when ``n`` is bound only further down.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

# Compound statements whose bodies run at module level.
_BLOCKS = (cst.If, cst.Try, cst.With, cst.For, cst.While)


def module_bindings(module: cst.Module) -> Iterator[tuple[str, cst.CSTNode]]:
    """Each module-level name with the node binding it (the statement, or the name of a ``def``
    or ``class``, so that its line is the binding's own), in source order, repeats included."""
    yield from _block(module.body)


def _block(body: object) -> Iterator[tuple[str, cst.CSTNode]]:
    statements = getattr(body, "body", body)
    if not isinstance(statements, (list, tuple)):
        return
    for statement in statements:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            yield statement.name.value, statement.name
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                for name in _small(small):
                    yield name, small
        elif isinstance(statement, _BLOCKS):
            yield from _compound(statement)


def _compound(statement: cst.BaseCompoundStatement) -> Iterator[tuple[str, cst.CSTNode]]:
    if isinstance(statement, cst.For):
        for name in _targets(statement.target):
            yield name, statement.target
    if isinstance(statement, cst.With):
        for item in statement.items:
            if item.asname is not None:
                for name in _targets(item.asname.name):
                    yield name, item.asname.name
    yield from _block(statement.body)
    for part in _parts(statement):
        yield from _block(getattr(part, "body", ()))


def _parts(statement: cst.BaseCompoundStatement) -> Iterator[cst.CSTNode]:
    """``else``, ``elif``, ``except`` and ``finally`` clauses."""
    if isinstance(statement, cst.Try):
        yield from statement.handlers
        if statement.finalbody is not None:
            yield statement.finalbody
    orelse = getattr(statement, "orelse", None)
    while orelse is not None:
        yield orelse
        orelse = getattr(orelse, "orelse", None) if isinstance(orelse, cst.If) else None


def _small(small: cst.BaseSmallStatement) -> Iterator[str]:
    if isinstance(small, cst.Assign):
        for target in small.targets:
            yield from _targets(target.target)
    elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
        if not isinstance(small, cst.AnnAssign) or small.value is not None:
            yield from _targets(small.target)
    elif isinstance(small, (cst.Import, cst.ImportFrom)):
        aliases = () if isinstance(small.names, cst.ImportStar) else small.names
        for alias in aliases:
            bound = alias.asname.name if alias.asname is not None else alias.name
            yield from _dotted_head(bound)


def _dotted_head(node: cst.BaseExpression) -> Iterator[str]:
    while isinstance(node, cst.Attribute):
        node = node.value
    if isinstance(node, cst.Name):
        yield node.value


def _targets(node: cst.BaseExpression) -> Iterator[str]:
    if isinstance(node, cst.Name):
        yield node.value
    elif isinstance(node, (cst.Tuple, cst.List)):
        for element in node.elements:
            yield from _targets(element.value)
    elif isinstance(node, cst.StarredElement):
        yield from _targets(node.value)
