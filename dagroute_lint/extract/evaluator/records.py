"""Dataclasses and named tuples of the repository: records whose fields the walk follows.

``Table("orders", queue="q")`` is a value, not an operator: its fields are bound the way the
generated ``__init__`` binds them (positionally in field order, then by keyword, then the class
defaults), and ``table.queue`` reads them. A dataclass with bases, ``InitVar``s, ``field(...)``
defaults or a ``__post_init__`` is not followed: its fields are unknown. Named tuples, from a
class statement or from ``collections.namedtuple``/``typing.NamedTuple`` called, are tuples
too: iterated, unpacked, indexed, ``_replace``d and ``_asdict``ed as Python does.
"""

from __future__ import annotations

import libcst as cst

from dagroute_lint.extract.bindings import (
    SET,
    Binding,
    BoundMethod,
    CallArguments,
    DictObject,
    ListObject,
    LocalClass,
    Record,
)
from dagroute_lint.extract.containers import elements, record_items, spoil
from dagroute_lint.extract.evaluator.state import WalkerState
from dagroute_lint.model import Const, SeqExpr, Unknown

DATACLASS = "dataclasses.dataclass"
NAMED_TUPLE = "typing.NamedTuple"


def record_fields(
    node: cst.ClassDef, bases: tuple[str, ...], decorators: tuple[str, ...]
) -> tuple[str, ...] | None:
    """The fields of a dataclass or ``NamedTuple`` class, in order; ``None`` for any other
    class, or one whose generated ``__init__`` the walk does not reproduce."""
    named_tuple = bases == (NAMED_TUPLE,)
    dataclass = DATACLASS in decorators and bases in ((), ("builtins.object",))
    if not (named_tuple or dataclass):
        return None
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    fields: list[str] = []
    for statement in body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == "__post_init__":
            return None
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                continue
            annotation = cst.Module([]).code_for_node(small.annotation.annotation)
            if "ClassVar" in annotation:
                continue
            if "InitVar" in annotation or isinstance(small.value, cst.Call):
                return None  # InitVar, field(default_factory=...): not followed
            fields.append(small.target.value)
    return tuple(fields)


def is_frozen(node: cst.ClassDef, bases: tuple[str, ...]) -> bool:
    """A ``NamedTuple``, or ``@dataclass(frozen=True)``: fields cannot be assigned."""
    if bases == (NAMED_TUPLE,):
        return True
    for decorator in node.decorators:
        call = decorator.decorator
        if isinstance(call, cst.Call):
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "frozen":
                    return not (isinstance(arg.value, cst.Name) and arg.value.value == "False")
    return False


class Records(WalkerState):
    def build_record(
        self, cls: LocalClass, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        """The record ``cls(...)`` makes, as its generated ``__init__`` binds the fields."""
        values = self.bound_fields(cls, positional, arguments)
        if isinstance(values, Unknown):
            return values
        return Record(cls, values, self.uncertain)

    def bound_fields(
        self, cls: LocalClass, positional: list[Binding], arguments: CallArguments
    ) -> dict[str, Binding] | Unknown:
        fields = cls.fields or ()
        if len(positional) > len(fields) or any(key not in fields for key in arguments.bindings):
            return Unknown(f"a call of {cls.qualname} that Python refuses")
        values: dict[str, Binding] = dict(zip(fields, positional, strict=False))
        for name in fields[len(positional) :]:
            if name in arguments.bindings:
                values[name] = arguments.bindings[name]
            elif arguments.spreads:
                values[name] = Unknown(f"field '{name}' may come from a ** spread")
            elif name in cls.attributes:
                values[name] = cls.attributes[name]
            else:
                return Unknown(f"a call of {cls.qualname} without its field '{name}'")
        return values

    def record_attribute(self, record: Record, attr: str) -> Binding:
        if attr in record.values:
            return record.values[attr]
        if attr == "__class__":
            return record.cls
        if attr.startswith("__") and attr.endswith("__"):  # ``obj.__dict__.update(...)``
            spoil(record, f"its '{attr}' is used")
            return Unknown(f"'{attr}' of an instance of {record.cls.qualname}")
        if record.spoiled is not None:
            return record.spoiled
        if record.cls.sequence and attr in TUPLE_METHODS:
            return BoundMethod(record, attr)
        if record.cls.sequence and attr == "_fields":
            return SeqExpr(tuple(Const(name) for name in record.cls.fields or ()))
        if record.cls.fields is None:
            return self.object_attribute(record, attr)
        return Unknown(f"attribute '{attr}' of a {record.cls.qualname}")

    def call_record_method(
        self, record: Record, name: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None:
        """``row._replace(queue="q")``, ``row._asdict()`` of a named tuple; ``None`` for any
        other method."""
        if not record.cls.sequence or record.spoiled is not None:
            return None
        if name == "_replace" and not positional and not arguments.spreads:
            if any(key not in record.values for key in arguments.bindings):
                return Unknown(f"{record.cls.qualname}._replace() of a field it does not have")
            return Record(record.cls, {**record.values, **arguments.bindings}, self.uncertain)
        if name == "_asdict" and not positional and not arguments.bindings:
            items = record_items(record)
            if items is None:
                return None
            parts: list[tuple[str, Binding | None, Binding]] = [
                (SET, Const(field), item)
                for field, item in zip(record.cls.fields or (), items, strict=True)
            ]
            return DictObject(parts, self.uncertain)
        return None

    def store_on_record(self, record: Record, attr: str, value: Binding, written: str) -> None:
        """``record.x = ...``: the attribute's new value, unless under a condition not
        decided (it may keep its old one)."""
        if record.cls.frozen:
            return  # Python refuses: the file does not load
        if self.uncertain > record.level:
            value = Unknown(f"'{written}' is assigned under a condition that cannot be decided")
        record.values[attr] = value

    def named_tuple_class(
        self, qualname: str, positional: list[Binding], arguments: CallArguments
    ) -> Binding | None:
        """``collections.namedtuple("Row", ["name", "queue"], defaults=[...])`` and
        ``typing.NamedTuple("Row", [("name", str), ...])``: a record class, as the class
        statement would make it; ``None`` for any other call."""
        if qualname not in NAMED_TUPLE_FACTORIES or len(positional) != 2:
            return None
        typename, spec = positional
        fields = field_names(spec, qualname == NAMED_TUPLE_FACTORY)
        allowed = {"defaults", "module", "rename"} if qualname == NAMED_TUPLE_FACTORY else set()
        if (
            not isinstance(typename, Const)
            or not isinstance(typename.value, str)
            or fields is None
            or arguments.spreads
            or not set(arguments.bindings) <= allowed
            or "rename" in arguments.bindings
        ):
            return Unknown(f"a named tuple class {qualname}() whose fields are not known")
        defaults = elements(arguments.bindings.get("defaults", ListObject([])))
        if defaults is None or len(defaults) > len(fields):
            return Unknown(f"a named tuple class {qualname}() whose defaults are not known")
        attributes = dict(zip(fields[len(fields) - len(defaults) :], defaults, strict=True))
        return LocalClass(
            self.qualify(typename.value),
            attributes=attributes,
            operator=False,
            fields=fields,
            frozen=True,
            sequence=True,
        )


# Methods of a named tuple the walk computes.
TUPLE_METHODS = frozenset({"_replace", "_asdict"})
NAMED_TUPLE_FACTORY = "collections.namedtuple"
NAMED_TUPLE_FACTORIES = frozenset({NAMED_TUPLE_FACTORY, NAMED_TUPLE})


def field_names(spec: Binding, factory: bool) -> tuple[str, ...] | None:
    """The fields a functional named tuple names: ``"a b"``, ``"a, b"`` or ``["a", "b"]`` for
    ``collections.namedtuple``, ``[("a", str), ...]`` for ``typing.NamedTuple``; ``None`` when
    they are not all literal identifiers (Python refuses those, or the walk cannot tell)."""
    if factory and isinstance(spec, Const) and isinstance(spec.value, str):
        names: list[Binding] = [Const(name) for name in spec.value.replace(",", " ").split()]
    else:
        found = elements(spec)
        if found is None:
            return None
        names = found
        if not factory:
            pairs = [elements(pair) for pair in found]
            if any(pair is None or len(pair) != 2 for pair in pairs):
                return None
            names = [pair[0] for pair in pairs if pair is not None]
    fields = [name.value for name in names if isinstance(name, Const)]
    if len(fields) != len(names) or not all(
        isinstance(field, str) and field.isidentifier() and not field.startswith("_")
        for field in fields
    ):
        return None
    if len(set(fields)) != len(fields):
        return None
    return tuple(fields)  # type: ignore[arg-type]
