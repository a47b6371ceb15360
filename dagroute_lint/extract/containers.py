"""Dicts and lists built in a file: their contents as values, their changes, and giving up on them.

A dict or list is one shared object (``DictObject``/``ListObject``) while the file is walked, and
becomes a value expression only where something takes a copy of it: a DAG or operator built
with it (Airflow deep-copies ``default_args``), a ``**`` spread, ``.copy()``, the module's
constants at the end. What the walk cannot follow (a call that receives the dict, a change under
an undecided condition) spoils the object, so every later reader gets the reason, never the stale
contents.
"""

from __future__ import annotations

from dagroute_lint.extract.bindings import (
    DEFAULT,
    REMOVE,
    SET,
    SPREAD,
    Binding,
    DagHandle,
    DictObject,
    EnumMember,
    GroupHandle,
    Imported,
    ListObject,
    Record,
    SetObject,
    TaskHandles,
    VersionValue,
)
from dagroute_lint.extract.versions import described
from dagroute_lint.model import (
    Const,
    DictExpr,
    Expr,
    OneOf,
    Operation,
    Ref,
    SeqExpr,
    Subscript,
    Unknown,
)

EXPR_TYPES = (Const, Unknown, Ref, SeqExpr, DictExpr, Subscript, Operation, OneOf)
CONTAINERS = (DictObject, ListObject, SetObject)


def snapshot(value: Binding, visiting: frozenset[int] = frozenset()) -> Expr:
    """The value ``value`` holds now, as an expression that later changes do not reach."""
    if isinstance(value, EXPR_TYPES):
        return value
    if isinstance(value, Imported):
        return Ref(value.qualname)
    if isinstance(value, CONTAINERS):
        if value.spoiled is not None:
            return value.spoiled
        if id(value) in visiting:
            return Unknown("a container that contains itself")
        inner = visiting | {id(value)}
        if isinstance(value, SetObject):
            return Unknown("a set, not a single value")
        if isinstance(value, ListObject):
            return SeqExpr(tuple(snapshot(item, inner) for item in value.items))
        return _dict_snapshot(value, inner)
    if isinstance(value, (TaskHandles, DagHandle, GroupHandle)):
        return Unknown("an Airflow object, not a constant")
    if isinstance(value, VersionValue):
        return described(value)
    if isinstance(value, Record):
        items = record_items(value)
        if items is None:
            return Unknown(f"an instance of {value.cls.qualname}, not a constant")
        return SeqExpr(tuple(snapshot(item, visiting) for item in items))
    return Unknown("not a constant")


def _dict_snapshot(value: DictObject, visiting: frozenset[int]) -> Expr:
    parts: list[tuple[Expr | None, Expr]] = []
    for kind, key, item in value.parts:
        key_expr = snapshot(key, visiting) if key is not None else None
        item_expr = snapshot(item, visiting)
        if kind == SET:
            parts.append((key_expr, item_expr))
        elif kind == SPREAD:
            parts.append((None, item_expr))
        elif kind == REMOVE:
            assert key_expr is not None
            parts = [(None, Operation("without", (DictExpr(tuple(parts)), key_expr)))]
        elif kind == DEFAULT:
            # ``setdefault(k, v)``: ``v`` unless the dict already holds ``k``.
            parts = [(key_expr, item_expr), (None, DictExpr(tuple(parts)))]
    return DictExpr(tuple(parts))


def dict_of(expr: Expr, level: int) -> DictObject:
    """A new dict holding a copy of ``expr`` (``dict(x)``, ``x.copy()``, a DAG's own copy)."""
    return DictObject([(SPREAD, None, expr)], level)


def spoil(value: Binding, reason: str) -> None:
    """Give up on ``value`` and on every container and object reachable from it."""
    pending: list[Binding] = [value]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        if isinstance(current, Record) and id(current) not in seen:
            seen.add(id(current))
            pending.extend(current.values.values())
            if not current.cls.frozen:  # any attribute may have changed, or been added
                current.values.clear()
                current.spoiled = current.spoiled or Unknown(reason)
            continue
        if not isinstance(current, CONTAINERS) or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, DictObject):
            for _, key, item in current.parts:
                pending.append(item)
                if key is not None:
                    pending.append(key)
        elif isinstance(current, ListObject):
            pending.extend(current.items)
        if current.spoiled is None:
            current.spoiled = Unknown(reason)
            current.version += 1


def key_of(value: Binding) -> object | None:
    """What ``value`` is as a dict key or set element, when the walk can tell it from every
    other: a literal's value (``1`` and ``True`` are one key, as in Python), a plain Enum's
    member; ``None`` for anything else."""
    if isinstance(value, Const):
        return value.value
    if isinstance(value, EnumMember) and value.plain:
        return value
    return None


def set_of(values: list[Binding], level: int) -> SetObject | Unknown:
    """A set of ``values`` when each is a literal (hashable, as Python requires), else unknown."""
    found: dict[object, Const | EnumMember] = {}
    for value in values:
        if isinstance(value, CONTAINERS) and value.spoiled is not None:
            return value.spoiled
        key = key_of(value)
        if key is None or not isinstance(value, (Const, EnumMember)):
            return Unknown("a set with an element that is not a literal")
        found.setdefault(key, value)
    return SetObject(found, level)


def as_set(value: Binding) -> Binding:
    """``set(value)``: a new set of its elements when the walk knows them, else unknown."""
    items = elements(value)
    if items is None:
        return Unknown("a set of a value that is not a literal collection")
    return set_of(items, 0)


def consume(value: Binding) -> None:
    """Iterating an iterator empties it: a second pass yields nothing, or, after a first pass
    left early, the rest. The walk does not keep which, so what a later pass reads is unknown
    (never the items again: tasks a second loop would build from them Airflow never sees)."""
    if isinstance(value, ListObject) and value.iterator is not None and value.spoiled is None:
        value.spoiled = Unknown(
            f"{value.iterator} was iterated already: an iterator yields its items once"
        )


def not_iterated(value: Binding, fallback: str) -> str:
    """Why the walk cannot iterate ``value``: its own reason when it is unknown or spoiled."""
    if isinstance(value, Unknown):
        return value.reason
    if isinstance(value, CONTAINERS) and value.spoiled is not None:
        return value.spoiled.reason
    return fallback


def elements(value: Binding) -> list[Binding] | None:
    """The elements iterating ``value`` yields, when the walk knows them all, else ``None``."""
    if isinstance(value, CONTAINERS) and value.spoiled is not None:
        return None
    if isinstance(value, SetObject):
        return list(value.values.values())
    if isinstance(value, ListObject):
        return list(value.items)
    if isinstance(value, SeqExpr):
        return list(value.items)
    if isinstance(value, DictObject):
        keys: dict[object, Binding] = {}
        for kind, key, _ in value.parts:
            identity = key_of(key) if kind == SET and key is not None else None
            if identity is None:
                return None
            keys.setdefault(identity, key)  # type: ignore[arg-type]
        return list(keys.values())
    if isinstance(value, Const) and isinstance(value.value, str):
        return [Const(character) for character in value.value]
    if isinstance(value, Record):
        return record_items(value)
    return None


def ordered_sequence(value: Binding) -> bool:
    """Whether iterating ``value`` yields its elements in Python's order: not a set's, nor a
    folder's listing (``ListObject.unordered``)."""
    if isinstance(value, SetObject):
        return False
    return not (isinstance(value, ListObject) and value.unordered is not None)


def record_items(record: Record) -> list[Binding] | None:
    """The items of a named tuple, in field order (a tuple: iterated, unpacked, indexed);
    ``None`` for any other instance."""
    fields = record.cls.fields
    if (
        not record.cls.sequence
        or fields is None
        or any(name not in record.values for name in fields)
    ):
        return None
    return [record.values[name] for name in fields]


def list_index(key: Binding, length: int) -> int | None:
    """A literal integer key that indexes a sequence of ``length`` items, else ``None``."""
    if not isinstance(key, Const) or not isinstance(key.value, int) or isinstance(key.value, bool):
        return None
    return key.value if -length <= key.value < length else None


def live_item(container: Binding, key: Binding) -> Binding | None:
    """The object stored under a literal ``key``, when the dict's parts decide it for certain, so
    that ``CONF["args"]["queue"] = ...`` changes the very dict ``CONF["args"]`` holds."""
    if isinstance(container, ListObject) and container.unordered is not None:
        return None
    if isinstance(container, ListObject) and container.spoiled is None:
        index = list_index(key, len(container.items))
        return container.items[index] if index is not None else None
    if not isinstance(container, DictObject) or container.spoiled is not None:
        return None
    wanted = key_of(key)
    if wanted is None:
        return None
    for kind, part_key, item in reversed(container.parts):
        found = key_of(part_key) if kind == SET and part_key is not None else None
        if found is not None:
            if found == wanted:
                return item
            continue
        return None  # a spread, removal or default may decide the key: not certain
    return None
