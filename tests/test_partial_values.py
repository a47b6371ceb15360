"""The fold of keyword values for rules about argument values (``Resolver.partial``).

It keeps the shape of dicts and lists so that their known leaves can be judged (a secret in one
key of ``default_args``) while others stay unknown. Its depth bound is the value folder's: each
level of nesting counts one against ``MAX_DEPTH``, a container ``MAX_DEPTH`` levels down still
keeps its shape, and a leaf is folded one level more (its own evaluation), so the last leaf that
folds is ``MAX_DEPTH - 1`` levels down. Extraction folds literal chains before the resolver sees
most of them, so the bound is pinned on expressions built directly, as in
``test_value_depth_bound.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from dagroute_lint.model import Const, DictExpr, Expr, Module, OneOf, Ref, SeqExpr, Unknown
from dagroute_lint.resolve.tasks import Resolver
from dagroute_lint.resolve.values import MAX_DEPTH, SymbolTable, Unresolved
from tests.helpers import lint_source

TOO_DEEP = Unresolved("expression nested too deeply")


def fold(expr: Expr, module: Module | None = None) -> object:
    """``expr`` folded by a fresh resolver, ``module`` the only module of the repository."""
    table = SymbolTable(lambda name: module if module and name == module.module_name else None)
    return Resolver(table, "default", 3).partial(expr)


def nested(levels: int, wrap: Callable[[Expr], Expr], core: Expr) -> Expr:
    expr = core
    for _ in range(levels):
        expr = wrap(expr)
    return expr


def expected(levels: int, wrap: Callable[[object], object], core: object) -> object:
    value = core
    for _ in range(levels):
        value = wrap(value)
    return value


def down(value: object, levels: int) -> object:
    """What ``levels`` dicts down (through their ``"k"``) the folded value holds."""
    for _ in range(levels):
        assert isinstance(value, dict), value
        value = value["k"]
    return value


def in_list(expr: Expr) -> Expr:
    return SeqExpr((expr,))


def in_dict(expr: Expr) -> Expr:
    return DictExpr(((Const("k"), expr),))


def in_one_of(expr: Expr) -> Expr:
    return OneOf((expr,), "a condition")


def as_list(value: object) -> object:
    return [value]


def as_dict(value: object) -> object:
    return {"k": value}


def test_list_items_fold_down_to_the_bound() -> None:
    """The last leaf folds; one level deeper it is unknown, and a level deeper still the list
    that held it is kept and its item cut, with the folder's reason."""
    assert fold(nested(MAX_DEPTH - 1, in_list, Const("q"))) == expected(MAX_DEPTH - 1, as_list, "q")
    assert fold(nested(MAX_DEPTH, in_list, Const("q"))) == expected(MAX_DEPTH, as_list, TOO_DEEP)
    assert fold(nested(MAX_DEPTH + 1, in_list, Const("q"))) == expected(
        MAX_DEPTH + 1, as_list, TOO_DEEP
    )


def test_dict_values_fold_down_to_the_bound() -> None:
    assert fold(nested(MAX_DEPTH - 1, in_dict, Const("q"))) == expected(MAX_DEPTH - 1, as_dict, "q")
    assert fold(nested(MAX_DEPTH, in_dict, Const("q"))) == expected(MAX_DEPTH, as_dict, TOO_DEEP)
    innermost = down(fold(nested(MAX_DEPTH + 1, in_dict, Const("q"))), MAX_DEPTH)
    assert isinstance(innermost, dict) and "k" not in innermost  # its key is one level too deep


def test_nesting_far_past_the_bound_is_cut() -> None:
    """However deep the value, the fold stops at the bound rather than following it down."""
    assert fold(nested(3 * MAX_DEPTH, in_list, Const("q"))) == expected(
        MAX_DEPTH + 1, as_list, TOO_DEEP
    )
    innermost = down(fold(nested(3 * MAX_DEPTH, in_dict, Const("q"))), MAX_DEPTH)
    assert isinstance(innermost, dict) and "k" not in innermost


def test_a_leaf_counts_its_own_levels() -> None:
    """A leaf that is itself nested (``a if x else b`` chains) counts from the level it is at."""
    assert fold(nested(MAX_DEPTH - 1, in_one_of, Const("q"))) == "q"
    assert fold(nested(MAX_DEPTH, in_one_of, Const("q"))) == TOO_DEEP
    inside = DictExpr(((Const("k"), nested(MAX_DEPTH - 2, in_one_of, Const("q"))),))
    assert fold(inside) == {"k": "q"}
    deeper = DictExpr(((Const("k"), nested(MAX_DEPTH - 1, in_one_of, Const("q"))),))
    assert fold(deeper) == {"k": TOO_DEEP}


def test_a_dict_key_counts_from_its_dict() -> None:
    """A key is folded one level below its dict, as a value is: a key nested one level too deep
    is not known, and no rule sees the value under the name it would have had."""
    known = DictExpr(((nested(MAX_DEPTH - 1, in_one_of, Const("k")), Const("v")),))
    assert fold(known) == {"k": "v"}
    too_deep = DictExpr(((nested(MAX_DEPTH, in_one_of, Const("k")), Const("v")),))
    folded = fold(too_deep)
    assert isinstance(folded, dict) and "k" not in folded


def test_a_reference_chain_counts_from_the_level_it_is_followed_at() -> None:
    """``A0 = "q"``, ``A1 = A0``...: one level down (in a list), a chain that folds at the top
    is one level too long and taken for one that refers to itself."""
    constants: dict[str, Expr] = {"A0": Const("q")}
    for index in range(1, MAX_DEPTH + 1):
        constants[f"A{index}"] = Ref(f"routing.A{index - 1}")
    module = Module(path="routing.py", module_name="routing", constants=constants)
    top = f"routing.A{MAX_DEPTH - 1}"
    assert fold(Ref(top), module) == "q"
    assert fold(in_list(Ref(top)), module) == ["q"]
    longer = in_list(Ref(f"routing.A{MAX_DEPTH}"))
    assert fold(longer, module) == [Unresolved("'routing.A0' refers to itself")]


def test_keys_after_a_spread_are_kept() -> None:
    """``{**unknown, "k": v}``: what the spread holds is not known, the keys after it are."""
    expr = DictExpr(((None, Unknown("imported")), (Const("k"), Const("v"))))
    assert fold(expr) == {"k": "v"}


HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from settings_outside_the_repository import BASE, KEY
"""


def secrets(source: str) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in lint_source(HEADER + source, select=("DRL401",))]


def test_a_secret_after_a_spread_of_unknown_default_args_is_found() -> None:
    found = secrets(
        """
with DAG("reports", default_args={**BASE, "password": "hunter2"}):
    BashOperator(task_id="build", bash_command="x")
"""
    )
    assert found == [
        (
            5,
            "DAG default_args sets a literal secret in 'password'; anyone who can read the DAG "
            "files or the task's rendered arguments sees it: read it from an Airflow "
            "connection, Variable or secrets backend instead",
        )
    ]


def test_a_key_that_cannot_be_known_does_not_hide_the_others() -> None:
    found = secrets(
        """
with DAG("reports"):
    BashOperator(task_id="build", bash_command="x", env={KEY: "x", "DB_PASSWORD": "hunter2"})
"""
    )
    assert [line for line, _ in found] == [6]
    where = "sets a literal secret in 'env[\"DB_PASSWORD\"]'"
    assert found[0][1].startswith(f"task 'build' in dag 'reports' {where}")
