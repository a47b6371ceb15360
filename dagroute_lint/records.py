"""``@record``: a dataclass whose comparison, hash and repr are shared functions, not compiled ones.

``@dataclass(frozen=True)`` writes six methods of every class as source text and compiles each
one when the module is imported. A one-file run imports about a hundred of the package's classes
before it reads the file, and compiling their 577 methods was more than a third of the package's
own import time (``benchmarks/README.md``, the import budget). A record keeps what dataclasses
does best, the generated ``__init__`` (defaults, factories, ``__post_init__``), and takes
``__eq__``, ``__hash__``, ``__repr__`` and the orderings from closures made here, which read the
fields through one ``operator.attrgetter`` per class and behave as the generated methods do.

A record is frozen unless it says ``frozen=False``. Frozen is checked by mypy, which reads
``frozen_default`` below and rejects an assignment to a field; at run time a frozen record does
not refuse assignment, because refusing it is what the generated ``__setattr__`` and
``__delattr__`` cost.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_options: object) -> Callable[[Any], Any]:
        """What the type checker reads; nothing to do when the program runs."""
        return lambda decorated: decorated


Class = TypeVar("Class", bound=type)
Key = Callable[[Any], tuple[Any, ...]]


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


def _made(cls: Class, *, frozen: bool, eq: bool, order: bool) -> Class:
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    body = dict(cls.__dict__)
    dataclasses.dataclass(cls, repr=False, eq=False)
    fields = dataclasses.fields(cls)
    _define(cls, "__repr__", _repr([f.name for f in fields if f.repr]))
    if not eq:
        return cls
    compared = _key([f.name for f in fields if f.compare])
    _define(cls, "__eq__", _equality(compared))
    if order:
        for name, compare in _ORDERINGS.items():
            _define(cls, name, _ordering(name, compare, compared))
    explicit_hash = "__hash__" in body and not (body["__hash__"] is None and "__eq__" in body)
    if not explicit_hash:
        hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
        cls.__hash__ = _hash(_key(hashed)) if frozen else None  # type: ignore[assignment]
    return cls


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
