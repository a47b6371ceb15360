"""``@record`` behaves as ``@dataclass`` with the same options (a frozen record refuses assignment
at run time, as a frozen dataclass does) but compiles only ``__init__``."""

from __future__ import annotations

import ast
import dataclasses
import pickle
import sys
from dataclasses import field
from pathlib import Path
from typing import Any, ClassVar

import pytest

from dagroute_lint.records import field_values, fields, is_record, record, replace


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


def test_a_frozen_record_refuses_assignment_as_a_frozen_dataclass_does() -> None:
    """Plugin rules receive records and mypy does not check plugins: frozen holds at run time."""
    from dagroute_lint.model import Position

    position = Position(1, 1)
    seen = {position}
    before = hash(position)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'line'"):
        position.line = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'column'"):
        del position.column  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.extra = 1  # type: ignore[attr-defined]  # not a field either, as dataclasses
    assert (position.line, position.column) == (1, 1)
    assert hash(position) == before and position in seen
    assert replace(position, line=5) == Position(5, 1) != position
    for made in (Point(1, 2), PointDataclass(1, 2)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.x = 3  # type: ignore[misc]


def test_a_mutable_record_takes_assignment() -> None:
    one = Mutable()
    one.items = [2]
    del one.items
    assert not hasattr(one, "items")
    assert "__setattr__" not in Mutable.__dict__


def test_a_plain_subclass_of_a_frozen_record_may_add_attributes_but_not_fields() -> None:
    class Noted(Point):
        pass

    noted = Noted(1)
    noted.note = "free"  # type: ignore[attr-defined]
    assert noted.note == "free"  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        noted.x = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del noted.y  # type: ignore[misc]


def test_frozen_records_copy_and_pickle_past_their_setattr() -> None:
    import copy

    made = Derived(0, 5)
    assert copy.copy(made) == copy.deepcopy(made) == pickle.loads(pickle.dumps(made)) == made


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


def test_declaring_a_record_compiles_nothing_and_runs_no_dataclass_machinery(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the module is for: a class no run makes costs no compilation, and
    ``__init__`` alone is compiled, the first time an instance is made."""
    processed: list[type] = []
    process = dataclasses._process_class  # type: ignore[attr-defined]

    def spy(cls: type, *args: Any, **kwargs: Any) -> Any:
        processed.append(cls)
        return process(cls, *args, **kwargs)

    monkeypatch.setattr(dataclasses, "_process_class", spy)

    @record(order=True)
    class Fresh:
        a: int
        b: str = ""

    assert processed == []
    assert "<record" not in Fresh.__init__.__code__.co_filename
    assert Fresh(1) < Fresh(2)
    assert Fresh.__init__.__code__.co_filename == f"<record {Fresh.__qualname__}>"
    assert Fresh.__init__.__qualname__ == f"{Fresh.__qualname__}.__init__"
    assert processed == []  # nothing asked dataclasses for its fields yet
    assert [f.name for f in dataclasses.fields(Fresh)] == ["a", "b"]
    assert len(processed) == 1


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


@dataclasses.dataclass
class PlainBase:
    first: int
    shared: str = "base"


@record(frozen=False)
class FromDataclass(PlainBase):
    shared: str = "own"  # declared again: keeps its place, takes the new default
    extra: list[int] = field(default_factory=list)


@record
class Base:
    a: int
    b: int = 1


@record
class Derived(Base):
    c: int = 2
    kind: ClassVar[str] = "derived"
    later: tuple[int, ...] = field(default=(), init=False)


def test_fields_follow_the_bases_in_dataclass_order() -> None:
    assert [f.name for f in fields(FromDataclass)] == ["first", "shared", "extra"]
    made = FromDataclass(1)
    assert (made.first, made.shared, made.extra) == (1, "own", [])
    assert made == FromDataclass(1, "own", [])
    assert [f.name for f in fields(Derived)] == ["a", "b", "c", "later"]
    assert Derived(0) == Derived(0, 1, 2) != Derived(0, 1, 3)
    assert Derived(0).later == () and Derived.kind == "derived"
    with pytest.raises(TypeError):
        Derived(0, 1, 2, ())  # type: ignore[call-arg]  # not an __init__ parameter


def test_class_attributes_are_those_dataclasses_leaves() -> None:
    assert Point.y == 0 and Point.tags == ()  # field(default=...) becomes the default
    assert "items" not in Mutable.__dict__  # a factory leaves no class attribute


def test_post_init_runs_after_the_fields_are_set() -> None:
    @record(frozen=False)
    class Checked:
        low: int
        high: int = 10

        def __post_init__(self) -> None:
            if self.low > self.high:
                raise ValueError("low above high")
            self.span = self.high - self.low

    assert Checked(2).span == 8
    with pytest.raises(ValueError, match="low above high"):
        Checked(20)


def test_a_field_named_self_is_a_parameter_like_any_other() -> None:
    @record
    class Odd:
        self: int

    assert Odd(self=3).self == 3


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"__annotations__": {"a": "int", "b": "int"}, "a": 1}, "non-default argument 'b'"),
        ({"__annotations__": {"a": "list[int]"}, "a": []}, "mutable default"),
        ({"__annotations__": {"a": "InitVar[int]"}}, "does not take InitVar"),
        ({"__annotations__": {"a": "dataclasses.KW_ONLY"}}, "does not take KW_ONLY"),
        ({"__annotations__": {"a": "int"}, "a": field(kw_only=True)}, "does not take kw_only"),
        ({"__annotations__": {"a": dataclasses.InitVar[int]}}, "does not take InitVar"),
        ({"__annotations__": {"a": dataclasses.KW_ONLY}}, "does not take KW_ONLY"),
        ({"__setattr__": lambda self, name, value: None}, "Cannot overwrite attribute"),
        ({"__delattr__": lambda self, name: None}, "Cannot overwrite attribute"),
    ],
)
def test_what_dataclasses_refuses_or_a_record_does_not_take_is_refused(
    body: dict[str, Any], message: str
) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        record(type("Refused", (), body))


def test_every_record_of_the_package_reads_its_fields_as_dataclasses_does() -> None:
    """The fields a record reads from its class body are those ``dataclasses`` works out
    (which is what ``dataclasses.fields`` on a record answers), for every record declared."""
    import importlib
    import pkgutil

    import dagroute_lint

    for info in pkgutil.walk_packages(dagroute_lint.__path__, "dagroute_lint."):
        if info.name.startswith(("dagroute_lint.server", "dagroute_lint.__main__")):
            continue  # pygls is an optional extra; __main__ runs the program
        importlib.import_module(info.name)
    checked = 0
    for module in [m for name, m in sorted(sys.modules.items()) if name.startswith("dagroute_")]:
        for value in vars(module).values():
            if not (isinstance(value, type) and "__record_fields__" in value.__dict__):
                continue
            ours = [
                (f.name, f.default, f.factory, f.init, f.repr, f.compare, f.hash)
                for f in fields(value)
            ]
            theirs = [
                (f.name, f.default, f.default_factory, f.init, f.repr, f.compare, f.hash)
                for f in dataclasses.fields(value)
            ]
            assert ours == theirs, value
            checked += 1
    assert checked > 100


def test_the_package_s_own_replace_and_values_agree_with_dataclasses() -> None:
    """The package asks ``records`` (which needs no dataclass view) what it would ask
    ``dataclasses``: the answers are the same."""
    changed = Derived(0, 5)
    assert replace(changed, c=9) == dataclasses.replace(changed, c=9) == Derived(0, 5, 9)
    assert replace(FromDataclass(1, "x", [2]), first=3) == FromDataclass(3, "x", [2])
    assert field_values(Point(1, 2, ("t",))) == dataclasses.astuple(Point(1, 2, ("t",)))
    assert is_record(Point(1)) and not is_record(Point) and not is_record(PointDataclass(1))
    with pytest.raises(TypeError):
        replace(Point(1), z=1)  # type: ignore[call-arg]


def test_frozen_and_mutable_do_not_inherit_from_each_other_as_with_dataclasses() -> None:
    with pytest.raises(TypeError, match="frozen dataclass from a non-frozen one"):
        record(type("FrozenOverMutable", (Mutable,), {}))
    with pytest.raises(TypeError, match="frozen dataclass from a non-frozen one"):
        record(type("FrozenOverPlain", (PlainBase,), {}))
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):
        record(frozen=False)(type("MutableOverFrozen", (Point,), {}))


def test_annotations_that_are_objects_are_read_as_their_strings_are() -> None:
    """A class body without ``from __future__ import annotations`` holds the objects."""
    made = record(type("Live", (), {"__annotations__": {"a": int, "k": ClassVar[int]}, "k": 1}))
    assert [f.name for f in fields(made)] == ["a"]
    assert made(2).a == 2 and made.k == 1
