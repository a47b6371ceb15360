"""Decide conditions while walking: truth, comparisons and boolean operators on known values.

Only what the file itself fixes is decided (``ENV = "dev"; if ENV == "prod":``); anything that
depends on another module or the environment stays undecided, and the walk takes both branches.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import libcst as cst

from dagroute_lint.extract.bindings import (
    SET,
    Binding,
    DagHandle,
    DictObject,
    EnumMember,
    Function,
    GroupHandle,
    ListObject,
    LocalClass,
    SetObject,
    TaskHandles,
    VersionValue,
)
from dagroute_lint.extract.containers import key_of
from dagroute_lint.extract.versions import compare_ordered, compare_sequences
from dagroute_lint.model import Const, OneOf, SeqExpr, Unknown

_ORDERING: dict[type[cst.BaseCompOp], Callable[[Any, Any], object]] = {
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
}
_OBJECTS = (TaskHandles, DagHandle, GroupHandle, Function, LocalClass, VersionValue)


def truth(value: Binding) -> bool | None:
    """``bool(value)`` when the walk knows it, else ``None``."""
    if isinstance(value, Const):
        return bool(value.value)
    if isinstance(value, SeqExpr):
        return bool(value.items)
    if isinstance(value, ListObject) and value.spoiled is None:
        return bool(value.items)
    if isinstance(value, SetObject) and value.spoiled is None:
        return bool(value.values)
    if isinstance(value, DictObject) and value.spoiled is None:
        keys = _literal_keys(value)
        return None if keys is None else bool(keys)
    if isinstance(value, _OBJECTS):
        return True
    if isinstance(value, OneOf):  # decided when every candidate agrees
        found = {truth(option) for option in value.options}
        return found.pop() if len(found) == 1 else None
    return None


def compare(op: cst.BaseCompOp, left: Binding, right: Binding) -> bool | None:
    """``left <op> right`` when both sides are known, else ``None``."""
    if isinstance(op, (cst.In, cst.NotIn)):
        found = _contains(right, left)
        if found is None:
            return None
        return found if isinstance(op, cst.In) else not found
    if isinstance(left, EnumMember) or isinstance(right, EnumMember):
        return _compare_members(op, left, right)
    ordering = _ORDERING.get(type(op))
    if ordering is not None and (isinstance(left, VersionValue) or isinstance(right, VersionValue)):
        return compare_ordered(ordering, left, right)
    left_items, right_items = _tuple_items(left), _tuple_items(right)
    if ordering is not None and left_items is not None and right_items is not None:
        return compare_sequences(ordering, left_items, right_items)
    if not isinstance(left, Const) or not isinstance(right, Const):
        return None
    if isinstance(op, (cst.Is, cst.IsNot)):
        singletons = (None, True, False)
        if left.value not in singletons and right.value not in singletons:
            return None
        same = left.value is right.value
        return same if isinstance(op, cst.Is) else not same
    function = _ORDERING.get(type(op))
    if function is None:
        return None
    try:
        return bool(function(left.value, right.value))
    except TypeError:
        return None


def _tuple_items(value: Binding) -> tuple[Binding, ...] | None:
    """The items of a sequence compared item by item (``version_tuple() >= (3, 0, 0)``)."""
    if isinstance(value, SeqExpr):
        return value.items
    if isinstance(value, ListObject) and value.spoiled is None:
        return tuple(value.items)
    return None


def _compare_members(op: cst.BaseCompOp, left: Binding, right: Binding) -> bool | None:
    """``is``/``==`` between Enum members (singletons); a plain Enum's member against any
    other literal is neither the same object nor equal to it."""
    negated = isinstance(op, (cst.IsNot, cst.NotEqual))
    if not isinstance(op, (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual)):
        return None
    if isinstance(left, EnumMember) and isinstance(right, EnumMember):
        same = left == right
    elif isinstance(op, (cst.Is, cst.IsNot)) or all(
        side.plain for side in (left, right) if isinstance(side, EnumMember)
    ):
        other = right if isinstance(left, EnumMember) else left
        if not isinstance(other, Const):
            return None
        same = False
    else:
        return None
    return not same if negated else same


def _contains(container: Binding, item: Binding) -> bool | None:
    wanted = key_of(item)
    if isinstance(container, SetObject) and container.spoiled is None and wanted is not None:
        return wanted in container.values
    if isinstance(container, DictObject) and container.spoiled is None and wanted is not None:
        keys = _literal_keys(container)
        return None if keys is None else wanted in keys
    if not isinstance(item, Const):
        return None
    if isinstance(container, Const) and isinstance(container.value, str):
        return isinstance(item.value, str) and item.value in container.value
    items: list[Binding] | None = None
    if isinstance(container, SeqExpr):
        items = list(container.items)
    elif isinstance(container, ListObject) and container.spoiled is None:
        items = container.items
    if items is None or not all(isinstance(each, Const) for each in items):
        return None
    return any(each == item for each in items)


def _literal_keys(value: DictObject) -> set[object] | None:
    keys: set[object] = set()
    for kind, key, _ in value.parts:
        identity = key_of(key) if kind == SET and key is not None else None
        if identity is None:
            return None
        keys.add(identity)
    return keys


def undecided(what: str) -> Unknown:
    """A truth value the walk cannot decide: a bool, so plain data."""
    return Unknown(f"{what} of values not known statically", data=True)
