"""``@record`` behaves as ``@dataclass`` with the same options but compiles only ``__init__``."""

from __future__ import annotations

import ast
import dataclasses
import pickle
from dataclasses import field
from pathlib import Path
from typing import Any

import pytest

from dagroute_lint.records import record


@record
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default=(), compare=False)


@dataclasses.dataclass(frozen=True)
class PointDataclass:
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default=(), compare=False)


@record(order=True)
class Version:
    major: int
    minor: int


@record(eq=False)
class Identity:
    name: str


@record(frozen=False)
class Mutable:
    items: list[int] = field(default_factory=list)


@record
class Hashed:
    key: str
    note: str = field(default="", hash=False)


@record
class OwnMethods:
    value: int

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnMethods) and abs(self.value - other.value) < 2

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "own"


@record
class Empty:
    pass


@record
class Single:
    only: float


def test_equality_and_hash_are_the_dataclass_ones() -> None:
    a, b = Point(1, 2, ("t",)), Point(1, 2)
    assert a == b  # tags are not compared
    assert hash(a) == hash(b) == hash((1, 2))
    assert hash(a) == hash(PointDataclass(1, 2))
    assert Point(1, 3) != a
    assert (Point(1) == PointDataclass(1)) is False  # another class is never equal
    assert Point.__eq__(Point(1), PointDataclass(1)) is NotImplemented
    assert Empty() == Empty()
    assert hash(Empty()) == hash(())
    nan = float("nan")
    assert Single(nan) == Single(nan)  # tuples compare the very object first, as dataclasses'
    assert Single(nan) != Single(float("nan"))


def test_repr_is_the_dataclass_one() -> None:
    assert repr(Point(1, 2, ("t",))) == repr(PointDataclass(1, 2, ("t",))).replace(
        "PointDataclass", "Point"
    )
    assert repr(Empty()) == "Empty()"
    assert repr(OwnMethods(1)) == "own"
    nested = Point.__repr__.__qualname__
    assert nested == "Point.__repr__"


def test_ordering_compares_the_fields_in_order() -> None:
    assert sorted([Version(2, 0), Version(1, 9), Version(1, 10)]) == [
        Version(1, 9),
        Version(1, 10),
        Version(2, 0),
    ]
    assert Version(1, 2) <= Version(1, 2) < Version(1, 3)
    assert Version(2, 0) >= Version(1, 99) > Version(1, 98)
    with pytest.raises(TypeError):
        _ = Version(1, 0) < (1, 0)  # type: ignore[operator]


def test_order_needs_equality() -> None:
    with pytest.raises(ValueError, match="eq must be true"):
        record(order=True, eq=False)(type("Loose", (), {"__annotations__": {"a": "int"}}))


def test_no_equality_means_identity() -> None:
    a = Identity("x")
    assert a != Identity("x")
    assert Identity.__eq__ is object.__eq__
    assert {a: 1}[a] == 1


def test_a_mutable_record_is_unhashable_like_a_mutable_dataclass() -> None:
    one = Mutable()
    one.items.append(1)
    assert one == Mutable([1])
    assert Mutable().items is not Mutable().items  # the factory runs per instance
    assert Mutable.__hash__ is None
    with pytest.raises(TypeError):
        hash(one)


def test_fields_left_out_of_the_hash_are_still_compared() -> None:
    assert hash(Hashed("k", "a")) == hash(Hashed("k", "b"))
    assert Hashed("k", "a") != Hashed("k", "b")


def test_methods_the_class_writes_are_kept() -> None:
    assert OwnMethods(1) == OwnMethods(2)
    assert hash(OwnMethods(5)) == 0


def test_a_record_is_a_dataclass() -> None:
    assert dataclasses.is_dataclass(Point)
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "tags"]
    assert dataclasses.replace(Point(1, 2), y=5) == Point(1, 5)
    assert dataclasses.astuple(Point(1, 2)) == (1, 2, ())
    assert Point.__match_args__ == ("x", "y", "tags")


@pytest.mark.parametrize(
    "value", [Point(1, 2, ("a",)), Version(1, 2), Mutable([3]), Hashed("k", "n")]
)
def test_records_survive_pickling(value: Any) -> None:
    assert pickle.loads(pickle.dumps(value)) == value


def test_no_method_but_init_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the module is for: dataclasses writes only ``__init__`` of a record."""
    written: list[str] = []
    create = dataclasses._create_fn  # type: ignore[attr-defined]

    def spy(name: str, *args: Any, **kwargs: Any) -> Any:
        written.append(name)
        return create(name, *args, **kwargs)

    monkeypatch.setattr(dataclasses, "_create_fn", spy)

    @record(order=True)
    class Fresh:
        a: int
        b: str = ""

    assert written == ["__init__"]
    assert Fresh(1) < Fresh(2)


def test_the_package_declares_its_classes_as_records() -> None:
    """A ``@dataclass`` in the package would compile its methods again at every start-up."""
    package = Path(__file__).resolve().parents[1] / "dagroute_lint"
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if ast.unparse(target) in ("dataclass", "dataclasses.dataclass"):
                    found.append(f"{path.relative_to(package)}:{node.lineno} {node.name}")
    assert found == []
