"""Where a file's unknown values come from: each ``Unknown`` the model keeps, placed at the
expression of the file that made it unknown (``Unknown.at``).

The walk notes, for every unknown value it makes, the innermost expression that gave it
(``WalkerState.unknown_at``). Only the unknowns the model keeps are placed, so that positions
are computed for those alone (a call is placed from CPython's tree cheaply; another expression,
an ``os.environ[...]``, needs libcst's positions, see ``positions``). The expressions holding
them are rebuilt once each, so that a ``default_args`` dict shared by many tasks stays one
object (the resolver folds each once per run, by identity).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Mapping

import libcst as cst

from dagroute_lint.model import (
    DictExpr,
    Expr,
    OneOf,
    Operation,
    SeqExpr,
    Site,
    Subscript,
    Unknown,
)
from dagroute_lint.records import replace


def _parts(expr: Expr) -> tuple[Expr | None, ...]:
    """The expressions directly below ``expr`` (``None`` for a dict's ``**`` spread key)."""
    if isinstance(expr, SeqExpr):
        return expr.items
    if isinstance(expr, DictExpr):
        return tuple(part for pair in expr.parts for part in pair)
    if isinstance(expr, Subscript):
        return (expr.target, expr.key)
    if isinstance(expr, Operation):
        return expr.operands
    if isinstance(expr, OneOf):
        return expr.options
    return ()


def _rebuilt(expr: Expr, parts: list[Expr | None]) -> Expr:
    """``expr`` with ``parts`` (as ``_parts`` lists them) below it instead."""
    if isinstance(expr, DictExpr):
        pairs: list[tuple[Expr | None, Expr]] = []
        for key, value in zip(parts[::2], parts[1::2]):
            assert value is not None
            pairs.append((key, value))
        return DictExpr(tuple(pairs))
    exprs = [part for part in parts if part is not None]
    if isinstance(expr, SeqExpr):
        return SeqExpr(tuple(exprs))
    if isinstance(expr, Subscript):
        return Subscript(exprs[0], exprs[1])
    if isinstance(expr, Operation):
        return Operation(expr.op, tuple(exprs))
    assert isinstance(expr, OneOf), expr
    return OneOf(tuple(exprs), expr.reason)


def _below(roots: Iterable[Expr], skip: Container[int] = ()) -> Iterator[Expr]:
    """Every expression of ``roots`` and below them, each once, children before their parents
    (without recursion: a list built in a loop may nest deeply); none of those in ``skip``."""
    seen: set[int] = set()
    stack: list[tuple[Expr, bool]] = [(root, False) for root in roots]
    while stack:
        expr, ready = stack.pop()
        if ready:
            yield expr
            continue
        key = id(expr)
        if key in seen or key in skip:
            continue
        seen.add(key)
        stack.append((expr, True))
        stack.extend((part, False) for part in _parts(expr) if part is not None)


def kept(
    roots: Iterable[Expr], noted: Mapping[int, tuple[Unknown, cst.CSTNode]]
) -> dict[int, cst.CSTNode]:
    """The expression that gave each noted unknown that ``roots`` hold, by the unknown's id."""
    return {
        id(expr): noted[id(expr)][1]
        for expr in _below(roots)
        if isinstance(expr, Unknown) and id(expr) in noted
    }


class Placement:
    """Rebuilds expressions with their unknowns placed at ``sites`` (by the unknown's id);
    what holds no placed unknown is kept as it is."""

    def __init__(self, sites: Mapping[int, Site]) -> None:
        self._sites = sites
        self._done: dict[int, Expr] = {}

    def __call__(self, expr: Expr) -> Expr:
        if not self._sites:
            return expr
        done = self._done
        for each in _below((expr,), done):
            if isinstance(each, Unknown):
                site = self._sites.get(id(each))
                done[id(each)] = each if site is None else replace(each, at=site)
                continue
            parts = _parts(each)
            new = [None if part is None else done[id(part)] for part in parts]
            changed = any(after is not before for after, before in zip(new, parts))
            done[id(each)] = _rebuilt(each, new) if changed else each
        return done[id(expr)]
