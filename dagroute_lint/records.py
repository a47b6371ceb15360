"""``@record``: a dataclass that costs nothing to declare, only to use.

``@dataclass`` works out every class's fields when the module is imported and writes its
methods as source text, compiling each one. A one-file run imports about a hundred of the
package's classes before it reads the file, and half of them are never made in that run: the
dataclass machinery was over a third of the package's own import time (``benchmarks/README.md``,
the import budget). A record reads its fields from the class body itself (annotations, plain
defaults and ``dataclasses.field(...)``), compiles its ``__init__`` the first time an instance
is made, and takes ``__eq__``, ``__hash__``, ``__repr__`` and the orderings from closures made
here, which read the fields through one ``operator.attrgetter`` per class and behave as the
generated methods do.

A record still is a dataclass to whoever asks (``dataclasses.fields``, ``replace``, ``astuple``,
``is_dataclass``, plugins): ``__dataclass_fields__`` is worked out by ``dataclasses`` itself,
from the same class body, when first read. What a record does not take: ``InitVar``,
``KW_ONLY`` and ``kw_only`` (refused at declaration, not misread).

A record is frozen unless it says ``frozen=False``, and frozen as a dataclass is: mypy reads
``frozen_default`` below and rejects an assignment to a field, and at run time assigning or
deleting an attribute raises ``dataclasses.FrozenInstanceError`` (plugin rules receive records,
and mypy does not check plugins); a frozen record's ``__init__`` sets its fields with
``object.__setattr__``. As with dataclasses, a frozen record cannot inherit from a mutable one,
nor the reverse.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_options: object) -> Callable[[Any], Any]:
        """What the type checker reads; nothing to do when the program runs."""
        return lambda decorated: decorated


Class = TypeVar("Class", bound=type)
Key = Callable[[Any], tuple[Any, ...]]
MISSING: Any = dataclasses.MISSING


@overload
def record(cls: Class, /) -> Class: ...


@overload
def record(
    *, frozen: bool = True, eq: bool = True, order: bool = False
) -> Callable[[Class], Class]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def record(
    cls: Class | None = None, /, *, frozen: bool = True, eq: bool = True, order: bool = False
) -> Class | Callable[[Class], Class]:
    """Make ``cls`` a dataclass with the equality, hash and ordering ``@dataclass(frozen=...,
    eq=..., order=...)`` would give it."""

    def wrap(cls: Class) -> Class:
        return _made(cls, frozen=frozen, eq=eq, order=order)

    return wrap if cls is None else wrap(cls)


class Field:
    """One field as ``dataclasses.Field`` would describe it: only what a record needs."""

    __slots__ = ("compare", "default", "factory", "hash", "init", "name", "repr")

    def __init__(
        self,
        name: str,
        default: Any = MISSING,
        factory: Any = MISSING,
        init: bool = True,
        repr: bool = True,
        compare: bool = True,
        hash: bool | None = None,
    ) -> None:
        self.name = name
        self.default = default
        self.factory = factory
        self.init = init
        self.repr = repr
        self.compare = compare
        self.hash = hash


def fields(value: object) -> tuple[Field, ...]:
    """The fields of a record (class or instance), bases' first, as ``dataclasses.fields``
    orders them. The package asks this rather than ``dataclasses``, which would work the
    record's dataclass view out (``_DataclassView``) for nothing."""
    found: tuple[Field, ...] = getattr(value, "__record_fields__")  # noqa: B009 (typed)
    return found


def is_record(value: object) -> bool:
    """Whether ``value`` is a record instance (not a class)."""
    return hasattr(type(value), "__record_fields__")


def field_values(value: object) -> tuple[Any, ...]:
    """The fields' values of a record, in order (``dataclasses.astuple``, not recursing)."""
    return tuple(getattr(value, f.name) for f in fields(value))


if TYPE_CHECKING:  # mypy checks the changes of ``dataclasses.replace`` against the fields
    from dataclasses import replace as replace  # noqa: PLC0414 (an explicit re-export)
else:

    def replace(value, /, **changes):
        """``dataclasses.replace`` for a record: a new one with ``changes`` made."""
        for f in fields(value):
            if f.init and f.name not in changes:
                changes[f.name] = getattr(value, f.name)
        return type(value)(**changes)


def _made(cls: Class, *, frozen: bool, eq: bool, order: bool) -> Class:
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    body = dict(cls.__dict__)
    _check_frozen_bases(cls, frozen)
    found = _fields_of(cls)
    cls.__record_fields__ = found  # type: ignore[attr-defined]
    cls.__record_frozen__ = frozen  # type: ignore[attr-defined]
    options = {"frozen": frozen, "eq": eq, "order": order}
    for name in ("__dataclass_fields__", "__dataclass_params__"):
        setattr(cls, name, _DataclassView(cls, body, options, name))
    _define(cls, "__init__", _first_init(cls))
    _define(cls, "__repr__", _repr([f.name for f in found if f.repr]))
    if frozen:
        names = frozenset(f.name for f in found)
        for name, method in (("__setattr__", _refuse_set), ("__delattr__", _refuse_delete)):
            if name in body:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
            _define(cls, name, method(cls, names))
    if "__match_args__" not in body:
        cls.__match_args__ = tuple(f.name for f in found if f.init)  # type: ignore[attr-defined,misc]
    if not eq:
        return cls
    compared = _key([f.name for f in found if f.compare])
    _define(cls, "__eq__", _equality(compared))
    if order:
        for name, compare in _ORDERINGS.items():
            _define(cls, name, _ordering(name, compare, compared))
    explicit_hash = "__hash__" in body and not (body["__hash__"] is None and "__eq__" in body)
    if not explicit_hash:
        hashed = [f.name for f in found if (f.compare if f.hash is None else f.hash)]
        cls.__hash__ = _hash(_key(hashed)) if frozen else None  # type: ignore[assignment]
    return cls


def _fields_of(cls: type) -> tuple[Field, ...]:
    """The bases' fields, then the class's own annotations in order (a field declared again
    keeps its place and takes its new default), with the class attributes ``dataclasses``
    would leave: a ``field(...)`` becomes its default, or goes when it has none."""
    found: dict[str, Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        if "__record_fields__" in base.__dict__:
            found.update((f.name, f) for f in fields(base))
        elif "__dataclass_fields__" in base.__dict__:
            found.update((f.name, _from_dataclass(f)) for f in dataclasses.fields(base))
    for name, annotation in _own_annotations(cls).items():
        kind = _annotation_kind(annotation)
        if kind == "ClassVar":
            continue
        if kind:
            raise TypeError(f"@record does not take {kind} ({cls.__qualname__}.{name})")
        value = cls.__dict__.get(name, MISSING)
        if isinstance(value, dataclasses.Field):
            if value.kw_only is True:
                raise TypeError(f"@record does not take kw_only ({cls.__qualname__}.{name})")
            made = _from_dataclass(value, name)
            if made.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
        else:
            made = Field(name, default=value)
        if made.default is not MISSING and made.default.__class__.__hash__ is None:
            raise ValueError(
                f"mutable default {type(made.default)} for field {name} is not allowed: "
                "use default_factory"
            )
        found[name] = made
    in_init = [f for f in found.values() if f.init]
    for before, after in itertools.pairwise(in_init):
        if _has_default(before) and not _has_default(after):
            raise TypeError(f"non-default argument {after.name!r} follows default argument")
    return tuple(found.values())


def _check_frozen_bases(cls: type, frozen: bool) -> None:
    """Refuse what ``dataclasses`` refuses: a frozen record over a mutable record or dataclass,
    or a mutable one over a frozen one."""
    for base in cls.__mro__[1:]:
        if "__record_frozen__" in base.__dict__:
            based = base.__dict__["__record_frozen__"]
        elif "__dataclass_params__" in base.__dict__:
            based = base.__dict__["__dataclass_params__"].frozen
        else:
            continue
        if based and not frozen:
            raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
        if frozen and not based:
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one")


def _own_annotations(cls: type) -> dict[str, Any]:
    """The class's own annotations, unevaluated (the package writes them as strings)."""
    import inspect  # loaded already: click imports it

    return inspect.get_annotations(cls)
    return dict(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063 (no get_annotations)


def _annotation_kind(annotation: Any) -> str:
    """``ClassVar``, another dataclass pseudo-field (``InitVar``, ``KW_ONLY``), or ""."""
    if isinstance(annotation, str):
        head = annotation.strip().split("[", 1)[0].strip()
        name = head.rsplit(".", 1)[-1]
        return name if name in ("ClassVar", "InitVar", "KW_ONLY") else ""
    if annotation is dataclasses.KW_ONLY:
        return "KW_ONLY"
    if isinstance(annotation, dataclasses.InitVar) or annotation is dataclasses.InitVar:
        return "InitVar"
    origin = getattr(annotation, "__origin__", annotation)
    return "ClassVar" if getattr(origin, "_name", None) == "ClassVar" else ""


def _from_dataclass(spec: dataclasses.Field[Any], name: str | None = None) -> Field:
    return Field(
        name or spec.name,
        default=spec.default,
        factory=spec.default_factory,
        init=spec.init,
        repr=spec.repr,
        compare=spec.compare,
        hash=spec.hash,
    )


def _has_default(f: Field) -> bool:
    return f.default is not MISSING or f.factory is not MISSING


def _first_init(cls: type) -> Callable[..., None]:
    """An ``__init__`` that compiles the record's own on the first call, puts it in its place
    and runs it: a class no run makes costs no compilation."""

    def __init__(*args: Any, **kwargs: Any) -> None:  # the instance first, then the fields
        made = _compiled_init(cls)
        cls.__init__ = made  # type: ignore[misc]
        made(*args, **kwargs)

    return __init__


def _compiled_init(cls: type) -> Callable[..., None]:
    """The ``__init__`` dataclasses would write for the fields: a frozen record's sets them
    with ``object.__setattr__``, past its own ``__setattr__``."""
    found = fields(cls)
    me = "__record_self__" if any(f.name == "self" for f in found) else "self"
    namespace: dict[str, Any] = {"__MISSING": MISSING, "__set": object.__setattr__}
    frozen = cls.__dict__["__record_frozen__"]
    parameters, lines = [me], []
    for f in found:
        if f.factory is not MISSING:
            namespace[f"__factory_{f.name}"] = f.factory
            value = f"__factory_{f.name}()"
            if f.init:
                parameters.append(f"{f.name}=__MISSING")
                value = f"{value} if {f.name} is __MISSING else {f.name}"
            lines.append(_assignment(me, f.name, value, frozen))
        elif f.init:
            if f.default is not MISSING:
                namespace[f"__default_{f.name}"] = f.default
                parameters.append(f"{f.name}=__default_{f.name}")
            else:
                parameters.append(f.name)
            lines.append(_assignment(me, f.name, f.name, frozen))
    if hasattr(cls, "__post_init__"):
        lines.append(f"{me}.__post_init__()")
    source = f"def __init__({', '.join(parameters)}):\n" + "".join(
        f"    {line}\n" for line in lines or ["pass"]
    )
    exec(compile(source, f"<record {cls.__qualname__}>", "exec"), namespace)
    made: Callable[..., None] = namespace["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made


def _assignment(me: str, name: str, value: str, frozen: bool) -> str:
    return f"__set({me}, {name!r}, {value})" if frozen else f"{me}.{name} = {value}"


def _refuse_set(cls: type[object], names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    """A frozen record's ``__setattr__``: as the generated one, it refuses every attribute on
    the record itself and the fields on a subclass that is not a record."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _refuse_delete(cls: type[object], names: frozenset[str]) -> Callable[[Any, str], None]:
    """A frozen record's ``__delattr__``, as ``_refuse_set``."""

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__


class _DataclassView:
    """``__dataclass_fields__`` and ``__dataclass_params__`` of a record, worked out by
    ``dataclasses`` (with the record's own options) from the class body the record was declared
    with, when either is first read; both then take the descriptors' places."""

    def __init__(
        self, cls: type, body: dict[str, Any], options: dict[str, bool], name: str
    ) -> None:
        self._cls = cls
        self._body = body
        self._options = options
        self._name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        cls = self._cls
        if isinstance(cls.__dict__["__dataclass_fields__"], _DataclassView):
            own = _own_annotations(cls)
            namespace = {name: self._body[name] for name in own if name in self._body}
            namespace.update(
                __annotations__=own, __module__=cls.__module__, __qualname__=cls.__qualname__
            )
            if "__orig_bases__" in self._body:  # a generic class: its bases as written
                namespace["__orig_bases__"] = self._body["__orig_bases__"]
            shadow = type(cls)(cls.__name__, cls.__bases__, namespace)
            dataclasses.dataclass(shadow, **self._options)
            cls.__dataclass_fields__ = shadow.__dataclass_fields__  # type: ignore[attr-defined]
            cls.__dataclass_params__ = shadow.__dataclass_params__  # type: ignore[attr-defined]
        return cls.__dict__[self._name]


def _define(cls: type, name: str, method: Callable[..., Any]) -> None:
    """Set a method the class body did not write itself, as dataclasses does."""
    if name not in cls.__dict__:
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)


def _key(names: list[str]) -> Key:
    """The tuple of the named fields, as the generated methods build it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda instance: (one(instance),)
    return lambda instance: ()


def _repr(names: list[str]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _equality(key: Key) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Key) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


_ORDERINGS: dict[str, Callable[[tuple[Any, ...], tuple[Any, ...]], bool]] = {
    "__lt__": lambda left, right: left < right,
    "__le__": lambda left, right: left <= right,
    "__gt__": lambda left, right: left > right,
    "__ge__": lambda left, right: left >= right,
}


def _ordering(
    name: str, compare: Callable[[tuple[Any, ...], tuple[Any, ...]], bool], key: Key
) -> Callable[[Any, Any], Any]:
    def ordered(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return compare(key(self), key(other))
        return NotImplemented

    ordered.__name__ = name
    return ordered
