"""Dataclasses and ``NamedTuple``s of the repository: records whose fields the walk follows.

``Table("orders", queue="q")`` is a value, not an operator: its fields are bound the way the
generated ``__init__`` binds them (positionally in field order, then by keyword, then the class
defaults), and ``table.queue`` reads them. A dataclass with bases, ``InitVar``s, ``field(...)``
defaults or a ``__post_init__`` is not followed: its fields are unknown.
"""

from __future__ import annotations

import libcst as cst

from dagroute_lint.extract.bindings import Binding, CallArguments, LocalClass, Record
from dagroute_lint.extract.evaluator.state import WalkerState
from dagroute_lint.model import Unknown

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
        return Record(cls, values, self.uncertain)

    def record_attribute(self, record: Record, attr: str) -> Binding:
        if attr in record.values:
            return record.values[attr]
        return Unknown(f"attribute '{attr}' of a {record.cls.qualname}")

    def store_on_record(self, record: Record, attr: str, value: Binding, written: str) -> None:
        """``record.x = ...``: the field's new value, unless under a condition not decided."""
        if record.cls.frozen:
            return  # Python refuses: the file does not load
        if self.uncertain > record.level:
            value = Unknown(f"'{written}' is assigned under a condition that cannot be decided")
        record.values[attr] = value


def spoil_record(record: Record, why: str) -> None:
    """Code the walk does not follow got the record: any field may have changed."""
    if record.cls.frozen:
        return
    for name in record.values:
        record.values[name] = Unknown(f"a record that may have been changed: {why}")
