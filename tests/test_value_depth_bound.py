"""The value folder's depth bound, shape by shape: every level of nesting counts one, so each
recursive path folds the same number of levels and says why it stops one level later.

Extraction folds literal chains before the folder sees most of them (``test_evaluation_depth``
pins the two chains that reach it through the command line); the folder's contract is the
expression model, so these build expressions directly, one shape per recursive path."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dagroute_lint.model import (
    Const,
    DictExpr,
    Expr,
    Module,
    OneOf,
    Operation,
    Ref,
    SeqExpr,
    Subscript,
    Unknown,
)
from dagroute_lint.resolve.values import MAX_DEPTH, Known, Resolved, SymbolTable, Unresolved

TOO_DEEP = "expression nested too deeply"
KEY_TOO_DEEP = f"a dict key is not a constant: {TOO_DEEP}"


def nested(levels: int, wrap: Callable[[Expr], Expr], core: Expr) -> Expr:
    expr = core
    for _ in range(levels):
        expr = wrap(expr)
    return expr


def no_module(name: str) -> Module | None:
    return None


def evaluate(expr: Expr) -> Resolved:
    return SymbolTable(no_module).evaluate(expr)


def queue_of(expr: Expr) -> Resolved | None:
    return SymbolTable(no_module).lookup_key(expr, "queue")


QUEUE = DictExpr(((Const("queue"), Const("q")),))


def in_list(expr: Expr) -> Expr:
    return SeqExpr((expr,))


def in_one_of(expr: Expr) -> Expr:
    return OneOf((expr,), "a condition")


def in_dict(expr: Expr) -> Expr:
    return DictExpr(((Const("k"), expr),))


def plus_x(expr: Expr) -> Expr:
    return Operation("add", (expr, Const("x")))


def subscripted(expr: Expr) -> Expr:
    """``{"k": expr}["k"]``: two levels, the subscript and the dict."""
    return Subscript(in_dict(expr), Const("k"))


def spread(expr: Expr) -> Expr:
    return DictExpr(((None, expr),))


def get_default(expr: Expr) -> Expr:
    """``{}.get("x", expr)``."""
    return Operation("get", (DictExpr(()), Const("x"), expr))


def without_x(expr: Expr) -> Expr:
    """``expr`` after ``del d["x"]``."""
    return Operation("without", (expr, Const("x")))


Fold = Callable[[Expr], "Resolved | None"]
# shape: how one level wraps, the innermost expression, the fold, the last level that folds,
# and the reason one level more gives. Folding a value: 64 levels below the top (MAX_DEPTH);
# looking a key up: one level fewer, for the innermost dict's key.
SHAPES: dict[str, tuple[Callable[[Expr], Expr], Expr, Fold, int, str]] = {
    "lists": (in_list, Const("q"), evaluate, MAX_DEPTH, TOO_DEEP),
    "one_of": (in_one_of, Const("q"), evaluate, MAX_DEPTH, TOO_DEEP),
    "dict_values": (in_dict, Const("q"), evaluate, MAX_DEPTH, TOO_DEEP),
    "sums": (plus_x, Const("q"), evaluate, MAX_DEPTH, TOO_DEEP),
    "subscripts": (subscripted, Const("q"), evaluate, MAX_DEPTH // 2, TOO_DEEP),
    "key_through_spreads": (spread, QUEUE, queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    "key_through_one_of": (in_one_of, QUEUE, queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    "key_through_get_defaults": (get_default, QUEUE, queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    "key_through_without": (without_x, QUEUE, queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_level_counts_one(shape: str) -> None:
    wrap, core, fold, last, reason = SHAPES[shape]
    assert isinstance(fold(nested(last, wrap, core)), Known)
    deeper = fold(nested(last + 1, wrap, core))
    assert isinstance(deeper, Unresolved)
    assert deeper.reason == reason


def test_a_reference_chain_stops_at_the_same_bound() -> None:
    """``A0 = "q"``, ``A1 = A0``, ...: a chain of names longer than the bound is taken for one
    that refers to itself."""
    constants: dict[str, Expr] = {"A0": Const("q")}
    for index in range(1, MAX_DEPTH + 2):
        constants[f"A{index}"] = Ref(f"routing.A{index - 1}")
    module = Module(path="routing.py", module_name="routing", constants=constants)
    table = SymbolTable(lambda name: module if name == "routing" else None)
    assert table.deref(Ref(f"routing.A{MAX_DEPTH}")) == Const("q")
    assert table.deref(Ref(f"routing.A{MAX_DEPTH + 1}")) == Unknown("'routing.A0' refers to itself")
