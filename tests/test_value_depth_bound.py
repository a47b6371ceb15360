"""The value folder's depth bound, shape by shape: on every recursive path each level of nesting
counts one against the same bound (``MAX_DEPTH``), and one level past it the reason says so.

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
Build = Callable[[int], Expr]


def chain(wrap: Callable[[Expr], Expr], core: Expr) -> Build:
    return lambda levels: nested(levels, wrap, core)


def removed_key(levels: int) -> Expr:
    """``QUEUE`` after ``del d[key]``, the key nested ``levels`` deep."""
    return without_x_of(QUEUE, nested(levels, in_one_of, Const("x")))


def without_x_of(mapping: Expr, key: Expr) -> Expr:
    return Operation("without", (mapping, key))


def get_name(levels: int) -> Expr:
    """``QUEUE_HOLDER.get(name, {})``, the name nested ``levels`` deep."""
    holder = DictExpr(((Const("x"), QUEUE),))
    return Operation("get", (holder, nested(levels, in_one_of, Const("x")), DictExpr(())))


def list_items(levels: int) -> Expr:
    """``[[...["q"]...][0]][0]``: an item of a list, by a number."""
    return nested(levels, lambda e: Subscript(SeqExpr((e,)), Const(0)), Const("q"))


def subscript_key(levels: int) -> Expr:
    """``{"k": "q"}[key]``, the key nested ``levels`` deep."""
    return Subscript(DictExpr(((Const("k"), Const("q")),)), nested(levels, in_one_of, Const("k")))


def dict_key(levels: int) -> Expr:
    """``{key: "q"}``, the key (``"queue"``) nested ``levels`` deep."""
    return DictExpr(((nested(levels, in_one_of, Const("queue")), Const("q")),))


def get_of_a_nested_holder(levels: int) -> Expr:
    """``{**{**{"x": QUEUE}}}.get("x", {})``: the dict ``get`` reads, ``levels`` spreads deep."""
    holder = nested(levels, spread, DictExpr(((Const("x"), QUEUE),)))
    return Operation("get", (holder, Const("x"), DictExpr(())))


# shape: the expression of so many levels, the fold, the last level that folds, and the reason
# one level more gives. Folding a value: 64 levels below the top (MAX_DEPTH); looking a key up:
# one level fewer, for the innermost dict's key.
SHAPES: dict[str, tuple[Build, Fold, int, str]] = {
    "lists": (chain(in_list, Const("q")), evaluate, MAX_DEPTH, TOO_DEEP),
    "one_of": (chain(in_one_of, Const("q")), evaluate, MAX_DEPTH, TOO_DEEP),
    "dict_values": (chain(in_dict, Const("q")), evaluate, MAX_DEPTH, TOO_DEEP),
    "sums": (chain(plus_x, Const("q")), evaluate, MAX_DEPTH, TOO_DEEP),
    "subscripts": (chain(subscripted, Const("q")), evaluate, MAX_DEPTH // 2, TOO_DEEP),
    "list_items": (list_items, evaluate, MAX_DEPTH // 2, TOO_DEEP),
    "key_through_spreads": (chain(spread, QUEUE), queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    "key_through_one_of": (chain(in_one_of, QUEUE), queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    "key_through_get_defaults": (chain(get_default, QUEUE), queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    "key_through_without": (chain(without_x, QUEUE), queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    "key_of_a_subscript": (chain(subscripted, QUEUE), queue_of, MAX_DEPTH // 2 - 1, KEY_TOO_DEEP),
    "removed_key": (
        removed_key,
        queue_of,
        MAX_DEPTH - 1,
        f"a removed dict key is not a constant: {TOO_DEEP}",
    ),
    "get_name": (get_name, queue_of, MAX_DEPTH - 1, "dict.get of a key that is not a constant"),
    "subscript_keys": (subscript_key, evaluate, MAX_DEPTH - 1, TOO_DEEP),
    "dict_keys": (dict_key, evaluate, MAX_DEPTH - 1, TOO_DEEP),
    "dict_keys_looked_up": (dict_key, queue_of, MAX_DEPTH - 1, KEY_TOO_DEEP),
    # The holder is read by structure (a default_args spread beside unknown values): the bound
    # is met reading the innermost dict's key.
    "get_of_a_nested_holder": (get_of_a_nested_holder, queue_of, MAX_DEPTH - 3, KEY_TOO_DEEP),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_level_counts_one(shape: str) -> None:
    build, fold, last, reason = SHAPES[shape]
    assert isinstance(fold(build(last)), Known)
    deeper = fold(build(last + 1))
    assert isinstance(deeper, Unresolved)
    assert deeper.reason == reason


def test_a_reference_chain_stops_at_the_same_bound() -> None:
    """``A0 = "q"``, ``A1 = A0``, ...: a chain of names longer than the bound is taken for one
    that refers to itself, followed (``deref``) or folded (``evaluate``)."""
    constants: dict[str, Expr] = {"A0": Const("q")}
    for index in range(1, MAX_DEPTH + 2):
        constants[f"A{index}"] = Ref(f"routing.A{index - 1}")
    module = Module(path="routing.py", module_name="routing", constants=constants)

    def table() -> SymbolTable:  # a fresh one each time: a table keeps what it folded
        return SymbolTable(lambda name: module if name == "routing" else None)

    last, deeper = Ref(f"routing.A{MAX_DEPTH}"), Ref(f"routing.A{MAX_DEPTH + 1}")
    itself = "'routing.A0' refers to itself"
    assert table().deref(last) == Const("q")
    assert table().deref(deeper) == Unknown(itself)
    assert table().evaluate(last) == Known("q")
    assert table().evaluate(deeper) == Unresolved(itself)


@pytest.mark.parametrize("shape", ["key_through_spreads", "key_through_one_of"])
def test_a_key_lookup_has_its_own_bound(shape: str) -> None:
    """Two levels past the bound the lookup itself stops, before any key is evaluated."""
    build, fold, last, _ = SHAPES[shape]
    deeper = fold(build(last + 2))
    assert isinstance(deeper, Unresolved)
    assert deeper.reason == TOO_DEEP


def test_a_reference_counts_one_level() -> None:
    """A name is one level: what it refers to folds one level less deep than at the top."""
    lists = {f"L{levels}": nested(levels, in_list, Const("q")) for levels in (63, 64)}
    args = {"ARGS": QUEUE}
    module = Module(path="routing.py", module_name="routing", constants={**lists, **args})
    table = SymbolTable(lambda name: module if name == "routing" else None)
    assert isinstance(table.evaluate(Ref("routing.L63")), Known)
    assert table.evaluate(Ref("routing.L64")) == Unresolved(TOO_DEEP)
    assert table.lookup_key(Ref("routing.ARGS"), "queue") == Known("q")


def test_a_reference_chain_counts_from_the_lookup_depth() -> None:
    """A key looked up ten spreads deep follows names from there: a chain that folds at the top
    is taken for one that refers to itself ten levels lower."""
    constants: dict[str, Expr] = {"A0": QUEUE}
    for index in range(1, MAX_DEPTH):
        constants[f"A{index}"] = Ref(f"routing.A{index - 1}")
    module = Module(path="routing.py", module_name="routing", constants=constants)

    def lookup(name: str) -> Resolved | None:
        table = SymbolTable(lambda found: module if found == "routing" else None)
        return table.lookup_key(nested(10, spread, Ref(f"routing.{name}")), "queue")

    assert lookup(f"A{MAX_DEPTH - 10}") == Known("q")
    assert lookup(f"A{MAX_DEPTH - 9}") == Unresolved("'routing.A0' refers to itself")
