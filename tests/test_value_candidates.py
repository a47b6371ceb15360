"""How the value folder keeps "one of several values": which candidates, under which reason, and
where it gives up (``MAX_CANDIDATES``), on the expression model the extraction builds."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dagroute_lint.model import (
    MAX_CANDIDATES,
    Const,
    DictExpr,
    Expr,
    OneOf,
    Operation,
    SeqExpr,
    Subscript,
)
from dagroute_lint.resolve.values import (
    Known,
    Resolved,
    SymbolTable,
    Unresolved,
    candidates,
)

CONDITION = "a condition"
TOO_MANY = f"{CONDITION}, with more than {MAX_CANDIDATES} possible values"


def queue(value: str) -> DictExpr:
    return DictExpr(((Const("queue"), Const(value)),))


def one_of(*options: Expr) -> OneOf:
    return OneOf(options, CONDITION)


def strings(*values: str) -> OneOf:
    return one_of(*(Const(value) for value in values))


def evaluate(expr: Expr) -> Resolved:
    return SymbolTable(lambda name: None).evaluate(expr)


def queue_of(expr: Expr) -> Resolved | None:
    return SymbolTable(lambda name: None).lookup_key(expr, "queue")


FOLDS: dict[str, tuple[Callable[[], Resolved | None], Resolved | None]] = {
    # A subscript of dicts that may lack the key: that case fails the import, so the others hold.
    "subscript_where_no_dict_has_the_key": (
        lambda: evaluate(
            Subscript(one_of(queue("a"), DictExpr(((Const("x"), Const(1)),))), Const("q"))
        ),
        Unresolved("key 'q' is missing (KeyError at parse time)"),
    ),
    "subscript_where_one_dict_lacks_the_key": (
        lambda: evaluate(
            Subscript(one_of(queue("a"), DictExpr(((Const("other"), Const(1)),))), Const("queue"))
        ),
        Known("a"),
    ),
    "subscript_where_two_dicts_have_it": (
        lambda: evaluate(Subscript(one_of(queue("a"), queue("b"), DictExpr(())), Const("queue"))),
        Unresolved(CONDITION, ("a", "b")),
    ),
    # dict.get of a key one candidate dict lacks: the default or the value, not known which.
    "get_of_a_key_a_candidate_may_lack": (
        lambda: queue_of(
            Operation(
                "get",
                (
                    one_of(DictExpr(((Const("x"), queue("a")),)), DictExpr(())),
                    Const("x"),
                    DictExpr(()),
                ),
            )
        ),
        Unresolved("dict.get of a key that a candidate dict may lack"),
    ),
    # The reason of candidates: the alternative's own, else the first unknown part's, else a
    # generic one when every part is known and the key picks among them.
    "key_of_alternative_dicts": (
        lambda: queue_of(one_of(queue("a"), queue("b"))),
        Unresolved(CONDITION, ("a", "b")),
    ),
    "sum_with_an_alternative": (
        lambda: evaluate(Operation("add", (strings("a", "b"), Const("x")))),
        Unresolved(CONDITION, ("ax", "bx")),
    ),
    "subscript_by_alternative_keys": (
        lambda: evaluate(
            Subscript(
                DictExpr(((Const("a"), Const("x")), (Const("b"), Const("y")))), strings("a", "b")
            )
        ),
        Unresolved("one of several values", ("x", "y")),
    ),
    "key_of_a_list_item_picked_among_dicts": (
        lambda: queue_of(Subscript(SeqExpr((queue("a"), queue("b"))), one_of(Const(0), Const(1)))),
        Unresolved("one of several values", ("a", "b")),
    ),
    # More combinations than MAX_CANDIDATES are not tried, even when few values would result.
    "nine_combinations_of_five_values": (
        lambda: evaluate(Operation("add", (strings("", "a", "aa"), strings("", "a", "aa")))),
        Unresolved(TOO_MANY),
    ),
    # A key of something that is not a dict.
    "key_of_a_number": (lambda: queue_of(Const(5)), Unresolved("not a dict")),
    "key_of_none": (lambda: queue_of(Const(None)), None),
    # str.format with keywords that are not a dict.
    "format_with_keywords_not_a_dict": (
        lambda: evaluate(Operation("format", (Const("{}"), SeqExpr((Const("a"),)), SeqExpr(())))),
        Unresolved("str.format that cannot be folded"),
    ),
}


@pytest.mark.parametrize("case", sorted(FOLDS))
def test_fold(case: str) -> None:
    fold, expected = FOLDS[case]
    assert fold() == expected


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["a", "a"], Known("a")),
        (["a", "b", "a"], Unresolved("r", ("a", "b"))),
        ([1, True, 1.0], Unresolved("r", (1, True, 1.0))),  # equal, but Airflow tells them apart
        (list(range(MAX_CANDIDATES)), Unresolved("r", tuple(range(MAX_CANDIDATES)))),
        (
            list(range(MAX_CANDIDATES + 1)),
            Unresolved(f"r, with more than {MAX_CANDIDATES} possible values"),
        ),
    ],
)
def test_candidates(values: list[object], expected: Resolved) -> None:
    assert candidates(values, "r") == expected
