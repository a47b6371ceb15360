"""What the value folder refuses to fold, and why: each operation on operands it cannot fold
safely is unknown with its own reason, never a guess; and how a dotted name is found among the
repository's modules (a constant, a class attribute, a submodule, nothing)."""

from __future__ import annotations

from datetime import timedelta
from typing import get_args

import pytest

from dagroute_lint.model import (
    Const,
    DictExpr,
    Expr,
    Module,
    Operation,
    OperationName,
    Ref,
    SeqExpr,
    Unknown,
)
from dagroute_lint.resolve.values import Known, Resolved, SymbolTable, Unresolved


def fold(op: OperationName, *operands: Expr) -> Resolved:
    return SymbolTable(lambda name: None).evaluate(Operation(op, operands))


def items(*values: str | int | float | bool | None) -> SeqExpr:
    return SeqExpr(tuple(Const(value) for value in values))


def keywords(**values: str | int | float | bool | None) -> DictExpr:
    return DictExpr(tuple((Const(key), Const(value)) for key, value in values.items()))


NO_KEYWORDS = DictExpr(())
CASES: list[tuple[OperationName, tuple[Expr, ...], Resolved]] = [
    # timedelta(...) of numbers only, given as a list and a dict of keywords
    ("timedelta", (items(1), keywords(hours=2)), Known(timedelta(days=1, hours=2))),
    (
        "timedelta",
        (items("1"), NO_KEYWORDS),
        Unresolved("a timedelta of values that are not numbers"),
    ),
    (
        "timedelta",
        (items(), keywords(hours="2")),
        Unresolved("a timedelta of values that are not numbers"),
    ),
    (
        "timedelta",
        (items(True), NO_KEYWORDS),
        Unresolved("a timedelta of values that are not numbers"),
    ),
    (
        "timedelta",
        (Const(1), NO_KEYWORDS),
        Unresolved("a timedelta of values that are not numbers"),
    ),
    ("timedelta", (items(), Const(1)), Unresolved("a timedelta of values that are not numbers")),
    # Path(...) of a string (backslashes are left unpinned: see benchmarks/mutation.md)
    ("path", (Const("dags//sub/./x.py"),), Known("dags/sub/x.py")),
    ("path_name", (Const("dags/x.py"),), Known("x.py")),
    ("path_stem", (Const("dags/x.py"),), Known("x")),
    ("path", (Const(1),), Unresolved("a path that is not a string")),
    # a dict less one key, and dict.get
    ("without", (keywords(a=1, b=2), Const("a")), Known({"b": 2})),
    (
        "without",
        (items(1), Const("a")),
        Unresolved("a key removed from something that is not a dict"),
    ),
    ("get", (keywords(a=1), Const("a"), Const(0)), Known(1)),
    ("get", (keywords(a=1), Const("b"), Const(0)), Known(0)),
    (
        "get",
        (items(1), Const("a"), Const(0)),
        Unresolved("dict.get on something that is not a dict"),
    ),
    (
        "get",
        (keywords(a=1), items(1), Const(0)),
        Unresolved("dict.get on something that is not a dict"),
    ),
    # str.replace of strings, never of an empty old string
    ("replace", (Const("a-b"), Const("-"), Const("_")), Known("a_b")),
    (
        "replace",
        (Const("ab"), Const(""), Const("_")),
        Unresolved("str.replace that cannot be folded"),
    ),
    (
        "replace",
        (Const("ab"), Const(1), Const("_")),
        Unresolved("str.replace that cannot be folded"),
    ),
    # len() of a value with a length
    ("len", (items(1, 2),), Known(2)),
    ("len", (Const(3),), Unresolved("len() of a value that has no length")),
    # products of numbers only; a path split at its suffix
    ("mul", (Const(60), Const(60)), Known(3600)),
    ("mul", (Const("ab"), Const(3)), Unresolved("'*' on values that are not numbers")),
    ("path_splitext", (Const("sql/load.sql"),), Known(["sql/load", ".sql"])),
    ("path_splitext", (Const(3),), Unresolved("a path that is not a string")),
    # str.format and an f-string's replacement field
    ("format", (Const("{}_{x}"), items("a"), keywords(x="b")), Known("a_b")),
    ("field", (Const(5), Const(None), Const("03d")), Known("005")),
    ("fstring", (Const("run_"), Const(7)), Known("run_7")),
    (
        "field",
        (Const(5), Const(None), Const(3)),
        Unresolved("f-string format spec that cannot be folded"),
    ),
    # an operation that fails as Python would
    ("mod", (Const("%d"), Const("x")), Unresolved("'mod' operation that fails at parse time")),
    # a string longer than the folder builds
    ("add", (Const("a" * 10_000), Const("b")), Unresolved("value too long to fold")),
    ("add", (Const("a" * 9_999), Const("b")), Known("a" * 9_999 + "b")),
]


@pytest.mark.parametrize(("op", "operands", "expected"), CASES)
def test_fold(op: OperationName, operands: tuple[Expr, ...], expected: Resolved) -> None:
    assert fold(op, *operands) == expected


def test_every_operation_the_model_names_is_folded_here() -> None:
    assert {case[0] for case in CASES} == set(get_args(OperationName))


ROUTING = Module(
    path="common/routing.py",
    module_name="common.routing",
    constants={"QUEUE": Const("q"), "Queues.GPU": Const("gpu")},
)
COMMON = Module(path="common/__init__.py", module_name="common", constants={"NAME": Const("c")})
MODULES = {module.module_name: module for module in (ROUTING, COMMON)}


@pytest.mark.parametrize(
    ("qualname", "expected"),
    [
        ("common.routing.QUEUE", Const("q")),
        ("common.routing.Queues.GPU", Const("gpu")),  # a class attribute
        ("common.NAME", Const("c")),
        ("common.routing.OTHER", Unknown("'OTHER' is not a constant of module common.routing")),
        ("common.routing.QUEUE.upper", Unknown("attribute of 'common.routing.QUEUE'")),
        ("elsewhere.QUEUE", Unknown("'elsewhere.QUEUE' is not defined in the repository")),
    ],
)
def test_a_dotted_name_is_found_in_its_module(qualname: str, expected: Expr) -> None:
    table = SymbolTable(MODULES.get)
    assert table.deref(Ref(qualname)) == expected
