"""Classes the repository defines, as the value folder finds them: by qualified name (nested
classes too), the routing fields a class or one of its repository bases may set in its own code,
and whether it can be an operator at all; base chains are followed up to ``MAX_DEPTH`` and a
cycle of bases ends the walk."""

from __future__ import annotations

from dagroute_lint.model import ClassInfo, Module
from dagroute_lint.resolve.values import MAX_DEPTH, SymbolTable

AIRFLOW_BASE = "airflow.models.BaseOperator"


def table(classes: dict[str, ClassInfo]) -> SymbolTable:
    module = Module(path="lab/ops.py", module_name="lab.ops", classes=classes)
    return SymbolTable(lambda name: module if name == "lab.ops" else None)


def chain(levels: int, root: ClassInfo) -> dict[str, ClassInfo]:
    """``C0`` is ``root``; ``C1`` derives from ``C0``, and so on up to ``C<levels>``."""
    classes = {"C0": root}
    for index in range(1, levels + 1):
        classes[f"C{index}"] = ClassInfo(bases=(f"lab.ops.C{index - 1}",), routes=())
    return classes


def test_a_class_is_found_by_its_qualified_name_nested_classes_too() -> None:
    inner = ClassInfo(bases=(AIRFLOW_BASE,), routes=("pool",))
    outer = ClassInfo(bases=(AIRFLOW_BASE,), routes=())
    symbols = table({"Outer": outer, "Outer.Inner": inner})
    assert symbols.class_info("lab.ops.Outer") == outer
    assert symbols.class_info("lab.ops.Outer.Inner") == inner
    assert symbols.class_info("lab.ops.Missing") is None
    assert symbols.class_info("other.Outer") is None


def test_routes_come_from_the_first_repository_base_that_sets_them() -> None:
    root = ClassInfo(bases=(AIRFLOW_BASE,), routes=("queue", "pool"))
    symbols = table(chain(MAX_DEPTH, root))
    assert symbols.class_routes("lab.ops.C0") == ("lab.ops.C0", frozenset({"queue", "pool"}))
    assert symbols.class_routes(f"lab.ops.C{MAX_DEPTH}") == (
        "lab.ops.C0",
        frozenset({"queue", "pool"}),
    )
    assert table(chain(MAX_DEPTH + 1, root)).class_routes(f"lab.ops.C{MAX_DEPTH + 1}") is None


def test_routes_of_a_second_base() -> None:
    symbols = table(
        {
            "Plain": ClassInfo(bases=(AIRFLOW_BASE,), routes=()),
            "Routed": ClassInfo(bases=(AIRFLOW_BASE,), routes=("executor",)),
            "Both": ClassInfo(bases=("lab.ops.Plain", "lab.ops.Routed"), routes=()),
        }
    )
    assert symbols.class_routes("lab.ops.Both") == ("lab.ops.Routed", frozenset({"executor"}))
    assert symbols.class_routes("lab.ops.Plain") is None


def test_a_cycle_of_bases_ends_the_walk() -> None:
    symbols = table(
        {
            "A": ClassInfo(bases=("lab.ops.B",), routes=()),
            "B": ClassInfo(bases=("lab.ops.A",), routes=()),
        }
    )
    assert symbols.class_routes("lab.ops.A") is None
    assert symbols.can_be_operator("lab.ops.A") is True


def test_a_class_deriving_from_a_non_operator_is_none_up_to_the_bound() -> None:
    record = ClassInfo(bases=(), routes=(), operator=False)
    assert table(chain(MAX_DEPTH, record)).can_be_operator(f"lab.ops.C{MAX_DEPTH}") is False
    # Past the bound the walk does not know, and does not rule the class out.
    assert table(chain(MAX_DEPTH + 1, record)).can_be_operator(f"lab.ops.C{MAX_DEPTH + 1}") is True
