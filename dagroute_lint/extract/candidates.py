"""Join the values a name holds in branches the walk cannot decide into one candidate set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst

from dagroute_lint.extract.bindings import Binding, Imported
from dagroute_lint.extract.containers import EXPR_TYPES
from dagroute_lint.model import (
    MAX_CANDIDATES,
    Const,
    DictExpr,
    Expr,
    OneOf,
    Operation,
    Ref,
    SeqExpr,
    Subscript,
    Unknown,
)

# How big an option may be, and how many candidate sets it may hold itself (``f"{q}-x" if y
# else q``): a join repeated in a loop would otherwise nest sets in sets without end.
MAX_OPTION_NODES = 256
MAX_NESTED_SETS = 4


def join(values: Sequence[Binding], reason: str) -> Expr | None:
    """The value of a name that holds one of ``values``: that value when they agree, else a
    ``OneOf`` of them; ``None`` when that cannot be said soundly (an object the walk shares
    between names, such as a dict that may still change, an unknown, too many options)."""
    options: list[Expr] = []
    # ``from common import Q`` then ``Q.ETL``: a constant, or else folding says it is not.
    exprs = [Ref(value.qualname) if isinstance(value, Imported) else value for value in values]
    for value in exprs:
        if not isinstance(value, EXPR_TYPES) or isinstance(value, Unknown):
            return None
        for option in value.options if isinstance(value, OneOf) else (value,):
            if not _small(option):
                return None
            if option not in options:
                options.append(option)
    if not options or len(options) > MAX_CANDIDATES:
        return None
    if len(options) == 1:
        return options[0]
    return OneOf(tuple(options), reason)


def joined(values: Sequence[Binding], reason: str) -> Expr:
    """``join``, or where it cannot say, unknown: for the reason of a value that is unknown
    itself (the real cause), else for ``reason``."""
    found = join(values, reason)
    if found is not None:
        return found
    return next((value for value in values if isinstance(value, Unknown)), Unknown(reason))


def _small(expr: Expr) -> bool:
    """``expr`` is small enough to keep as an option, with few candidate sets inside."""
    pending: list[Expr] = [expr]
    seen = sets = 0
    while pending:
        node = pending.pop()
        seen += 1
        if seen > MAX_OPTION_NODES:
            return False
        if isinstance(node, OneOf):
            sets += 1
            if sets > MAX_NESTED_SETS:
                return False
            pending.extend(node.options)
        elif isinstance(node, Operation):
            pending.extend(node.operands)
        elif isinstance(node, SeqExpr):
            pending.extend(node.items)
        elif isinstance(node, DictExpr):
            for key, item in node.parts:
                if key is not None:
                    pending.append(key)
                pending.append(item)
        elif isinstance(node, Subscript):
            pending.extend((node.target, node.key))
    return True


def cannot_raise(body: cst.BaseSuite, names: Mapping[str, Binding]) -> bool:
    """True when the ``try`` body is plain assignments of names, each once, that the walk
    folded to literals: it ran as Python would and raised nothing, so no handler runs."""
    statements = body.body if isinstance(body, cst.IndentedBlock) else (body,)
    assigned: list[str] = []
    for statement in statements:
        if not isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            return False
        for small in statement.body:
            if isinstance(small, cst.Pass):
                continue
            if not isinstance(small, cst.Assign):
                return False
            for target in small.targets:
                if not isinstance(target.target, cst.Name):
                    return False
                assigned.append(target.target.value)
    return len(set(assigned)) == len(assigned) and all(
        isinstance(names.get(name), Const) for name in assigned
    )
