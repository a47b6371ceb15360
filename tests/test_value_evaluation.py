"""How the value folder follows names: each constant is folded once per table, however often
it is referred to, and a name met deep inside an expression follows its chain from that depth.

The folder's contract is the expression model (extraction folds literal chains before the
folder sees most of them), so these build expressions directly, as ``test_value_depth_bound``
does."""

from __future__ import annotations

import random
from collections.abc import Callable

from dagroute_lint.model import Const, Expr, Module, Ref, SeqExpr
from dagroute_lint.resolve.values import MAX_DEPTH, Known, SymbolTable, Unresolved
from tests.test_value_depth_bound import QUEUE, nested, spread

LEVELS = 20  # a diamond 20 names deep: 2**20 paths to the constant at its bottom


def counting(module: Module, limit: int) -> tuple[Callable[[str], Module | None], list[str]]:
    """A module lookup that records each question and refuses more than ``limit`` of them, so
    that folding the same constant again and again fails at once instead of running for long."""
    asked: list[str] = []

    def lookup(name: str) -> Module | None:
        asked.append(name)
        assert len(asked) <= limit, f"more than {limit} module lookups"
        return module if name == "routing" else None

    return lookup, asked


def test_a_constant_referred_to_twice_at_every_level_is_folded_once() -> None:
    """``D1 = [D0, D0]``, ``D2 = [D1, D1]``, ...: a candidate set built from another one twice
    over. Each name is looked up once, so the top folds with one lookup per name, not one per
    path (about a million)."""
    constants: dict[str, Expr] = {"D0": Const("q")}
    for index in range(1, LEVELS + 1):
        below = Ref(f"routing.D{index - 1}")
        constants[f"D{index}"] = SeqExpr((below, below))
    module = Module(path="routing.py", module_name="routing", constants=constants)
    lookup, asked = counting(module, limit=10 * (LEVELS + 1))

    folded = SymbolTable(lookup).evaluate(Ref(f"routing.D{LEVELS}"))

    assert isinstance(folded, Known)
    value = folded.value
    for _ in range(LEVELS):
        assert isinstance(value, list) and len(value) == 2 and value[0] == value[1]
        value = value[1]
    assert value == "q"
    assert asked == ["routing"] * (LEVELS + 1)


def test_a_folded_constant_is_not_looked_up_again() -> None:
    """The same table asked for the same name twice answers the second time from what it
    folded: no module is looked up again."""
    module = Module(path="routing.py", module_name="routing", constants={"QUEUE": Const("q")})
    lookup, asked = counting(module, limit=10)
    table = SymbolTable(lookup)

    assert table.evaluate(Ref("routing.QUEUE")) == Known("q")
    assert table.evaluate(SeqExpr((Ref("routing.QUEUE"), Ref("routing.QUEUE")))) == Known(
        ["q", "q"]
    )
    assert asked == ["routing"]


def in_lists(levels: int, expr: Expr) -> Expr:
    for _ in range(levels):
        expr = SeqExpr((expr,))
    return expr


def in_lists_value(levels: int, value: object) -> object:
    for _ in range(levels):
        value = [value]
    return value


def test_a_name_deep_in_an_expression_follows_its_chain_from_that_depth() -> None:
    """``A0 = "q"``, ``A1 = A0``, ...: a chain that folds at the top (up to ``A64``) is taken
    for one that refers to itself when the name is met ten lists deep, where only ``A54``
    still folds: every level counts against the same bound, the names followed included."""
    constants: dict[str, Expr] = {"A0": Const("q")}
    for index in range(1, MAX_DEPTH + 1):
        constants[f"A{index}"] = Ref(f"routing.A{index - 1}")
    module = Module(path="routing.py", module_name="routing", constants=constants)

    def folded(name: str) -> object:
        table = SymbolTable(lambda found: module if found == "routing" else None)
        return table.evaluate(in_lists(10, Ref(f"routing.{name}")))

    assert folded(f"A{MAX_DEPTH - 10}") == Known(in_lists_value(10, "q"))
    deeper = folded(f"A{MAX_DEPTH - 9}")
    assert isinstance(deeper, Unresolved)
    assert deeper.reason == "'routing.A0' refers to itself"


def test_what_a_name_folds_to_does_not_depend_on_where_it_was_met_first() -> None:
    """One table, the chain's top name met ten lists deep first (where it is too long), then at
    the top (where it folds): the second answer is the top's own, not the first one kept."""
    constants: dict[str, Expr] = {"A0": Const("q")}
    for index in range(1, MAX_DEPTH + 1):
        constants[f"A{index}"] = Ref(f"routing.A{index - 1}")
    module = Module(path="routing.py", module_name="routing", constants=constants)
    table = SymbolTable(lambda found: module if found == "routing" else None)
    top = Ref(f"routing.A{MAX_DEPTH - 9}")

    assert isinstance(table.evaluate(in_lists(10, top)), Unresolved)
    assert table.evaluate(top) == Known("q")
    assert isinstance(table.evaluate(in_lists(10, top)), Unresolved)  # still too long there
    assert table.evaluate(in_lists(9, top)) == Known(in_lists_value(9, "q"))  # as from fresh


def test_a_shared_table_answers_as_fresh_ones_in_any_order() -> None:
    """Names of a long chain, each met at several depths in a shuffled order by one table, fold
    as each would in a table of its own: what was folded before never changes an answer."""
    constants: dict[str, Expr] = {"A0": Const("q")}
    for index in range(1, MAX_DEPTH + 1):
        constants[f"A{index}"] = Ref(f"routing.A{index - 1}")
    module = Module(path="routing.py", module_name="routing", constants=constants)

    def table() -> SymbolTable:
        return SymbolTable(lambda found: module if found == "routing" else None)

    questions = [(name, levels) for name in range(48, MAX_DEPTH + 1) for levels in range(14)]
    random.Random(7).shuffle(questions)
    shared = table()
    for name, levels in questions:
        expr = in_lists(levels, Ref(f"routing.A{name}"))
        assert shared.evaluate(expr) == table().evaluate(expr), (name, levels)


def test_a_diamond_deeper_than_the_bound_is_folded_in_few_steps() -> None:
    """``D1 = [D0, D0]`` ... past ``MAX_DEPTH``: the folds that meet the bound are kept by the
    depth they started at, so the second reference at each level is answered from the first."""
    levels = 3 * MAX_DEPTH
    constants: dict[str, Expr] = {"D0": Const("q")}
    for index in range(1, levels + 1):
        below = Ref(f"routing.D{index - 1}")
        constants[f"D{index}"] = SeqExpr((below, below))
    module = Module(path="routing.py", module_name="routing", constants=constants)
    lookup, _ = counting(module, limit=10 * levels)

    folded = SymbolTable(lookup).evaluate(Ref(f"routing.D{levels}"))

    assert isinstance(folded, Unresolved)


def test_nesting_under_names_answers_as_fresh_tables_in_any_order() -> None:
    """Names whose definitions nest lists (the bound of ``evaluate``) or ``**`` spreads (the
    bound of ``lookup_key``) around a value, each asked at several depths in a shuffled order:
    a shared table answers every question as a fresh one, folds that met the bound included."""
    constants: dict[str, Expr] = {}
    for levels in range(MAX_DEPTH - 14, MAX_DEPTH + 2):
        constants[f"L{levels}"] = in_lists(levels, Const("q"))
        constants[f"S{levels}"] = nested(levels, spread, QUEUE)
    module = Module(path="routing.py", module_name="routing", constants=constants)

    def table() -> SymbolTable:
        return SymbolTable(lambda found: module if found == "routing" else None)

    questions = [
        (kind, name, depth)
        for kind in ("L", "S")
        for name in range(MAX_DEPTH - 14, MAX_DEPTH + 2)
        for depth in range(0, 14, 3)
    ]
    random.Random(11).shuffle(questions)
    shared = table()
    for kind, name, depth in questions:
        expr = in_lists(depth, Ref(f"routing.{kind}{name}"))
        if kind == "L":
            assert shared.evaluate(expr) == table().evaluate(expr), (kind, name, depth)
        else:
            nest = nested(depth, spread, Ref(f"routing.{kind}{name}"))
            found = shared.lookup_key(nest, "queue"), table().lookup_key(nest, "queue")
            assert found[0] == found[1], (kind, name, depth)
