"""Builtins on values the walk knows: ``str(n)``, ``int("3")``, ``list(NAMES)``, ``zip(a, b)``.

DAG files compute ids and routing with them (``f"{name}_{str(i)}"``, ``for i, n in
enumerate(NAMES)``), and each is a pure function of its arguments, so the walk computes it as
Python would. A builtin it cannot compute (an argument is unknown, a keyword it does not model)
is unknown with the reason its argument gives; whether the result is plain data decides whether
calling its methods may build tasks (``Unknown.data``).
"""

from __future__ import annotations

from collections.abc import Callable

from dagroute_lint.extract.bindings import Binding, ListObject, SetObject
from dagroute_lint.extract.containers import consume, elements
from dagroute_lint.extract.folding import truth
from dagroute_lint.model import Const, Operation, Ref, Subscript, Unknown

Scalar = str | int | float | bool | None
# Builtins whose result is plain data whatever they are given.
DATA_RESULTS = frozenset(
    {
        "str", "int", "float", "bool", "len", "repr", "format", "abs", "round", "hash", "sum",
        "isinstance", "issubclass", "callable", "ord", "chr", "hex", "oct", "bin", "divmod",
        "pow", "any", "all", "open", "print", "id", "ascii",
    }
)  # fmt: skip
# Builtins whose result holds what they are given: data when all of it is.
CONTAINER_RESULTS = frozenset(
    {
        "list", "tuple", "sorted", "reversed", "set", "frozenset", "dict", "enumerate", "zip",
        "min", "max", "iter", "next",
    }
)  # fmt: skip


def result_is_data(name: str, positional: list[Binding]) -> bool:
    """Whether an uncomputed ``name(...)`` call of a builtin returns plain data."""
    if name in DATA_RESULTS:
        return True
    return name in CONTAINER_RESULTS and all(is_data(value) for value in positional)


def is_data(value: Binding) -> bool:
    """A value known to hold no code: a literal, or an unknown known to be data."""
    return isinstance(value, Const) or (isinstance(value, Unknown) and value.data)


def fold_builtin(
    name: str, positional: list[Binding], named: dict[str, Binding], level: int
) -> Binding | None:
    """``name(*positional, **named)`` computed, or ``None`` when the walk cannot (the only
    keyword modelled is ``enumerate``'s ``start``). ``level`` is the walk's condition depth, for
    the lists it makes."""
    if named:
        if name != "enumerate" or set(named) != {"start"} or len(positional) != 1:
            return None
        positional = [*positional, named["start"]]
    folder = _FOLDERS.get(name)
    return folder(positional, level) if folder is not None else None


def fold_str_method(text: str, name: str, positional: list[Binding], level: int) -> Binding | None:
    """``"a,b".split(",")``, ``name.upper()``: a string method of a literal, computed as Python
    would, or ``None`` when the walk cannot (a method it does not list, an unknown argument)."""
    if name not in STR_METHODS:
        return None
    if name == "join" and len(positional) == 1:
        parts = elements(positional[0])
        strings = _scalars(parts) if parts is not None else None
        if strings is None or not all(isinstance(part, str) for part in strings):
            return None
        return Const(text.join(strings))  # type: ignore[arg-type]
    values = _scalars(positional)
    if values is None:
        return None
    try:
        result = getattr(text, name)(*values)
    except (TypeError, ValueError):
        return Unknown(f"str.{name}() raises on these arguments")
    if isinstance(result, (list, tuple)):
        return ListObject([Const(item) for item in result], level)
    return Const(result)


# String methods that are pure functions of the string and their arguments.
STR_METHODS = frozenset(
    {
        "upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize", "casefold",
        "swapcase", "split", "rsplit", "join", "startswith", "endswith", "zfill", "center",
        "ljust", "rjust", "removeprefix", "removesuffix", "partition", "rpartition",
        "splitlines", "isdigit", "isalpha", "isalnum", "islower", "isupper", "isidentifier",
        "count", "find", "rfind",
    }
)  # fmt: skip


def _scalars(positional: list[Binding]) -> list[Scalar] | None:
    values = [value.value for value in positional if isinstance(value, Const)]
    return values if len(values) == len(positional) else None


def _scalar_call(function: Callable[..., object], most: int) -> Callable[..., Binding | None]:
    """A builtin of scalars; one that raises is unknown, as the file would fail there."""

    def fold(positional: list[Binding], _level: int) -> Binding | None:
        values = _scalars(positional)
        if values is None or len(values) > most:
            return None
        try:
            result = function(*values)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            return Unknown(f"{function.__name__}() raises on these arguments")
        if isinstance(result, (str, int, float, bool)) or result is None:
            return Const(result)
        return None

    return fold


def _str(positional: list[Binding], level: int) -> Binding | None:
    """``str(x)``; of a value resolve folds later (``a + b``, another module's name), the
    f-string field ``f"{x!s}"``, which is the same string."""
    if len(positional) == 1 and isinstance(positional[0], (Operation, Ref, Subscript)):
        return Operation("field", (positional[0], Const("s"), Const("")))
    return _STR_OF_SCALARS(positional, level)


def _bool(positional: list[Binding], _level: int) -> Binding | None:
    if not positional:
        return Const(False)
    decided = truth(positional[0]) if len(positional) == 1 else None
    return Const(decided) if decided is not None else None


def _items_of(positional: list[Binding]) -> list[list[Binding]] | None:
    """The elements of each argument, in the order iterating it yields them: a set's order is
    its hashes' (randomised per process for strings), so a set gives none, nor does a listing
    in the file system's order."""
    if any(
        isinstance(value, SetObject) or (isinstance(value, ListObject) and value.unordered)
        for value in positional
    ):
        return None
    found = [elements(value) for value in positional]
    if any(items is None for items in found):
        return None
    for value in positional:
        consume(value)
    return found  # type: ignore[return-value]


def _sequence(positional: list[Binding], level: int) -> Binding | None:
    if not positional:
        return ListObject([], level)
    listed = positional[0]
    if len(positional) == 1 and isinstance(listed, ListObject) and listed.unordered:
        return ListObject(list(listed.items), level, unordered=listed.unordered)
    found = _items_of(positional) if len(positional) == 1 else None
    return ListObject(list(found[0]), level) if found is not None else None


def _reversed(positional: list[Binding], level: int) -> Binding | None:
    found = _items_of(positional) if len(positional) == 1 else None
    if found is None:
        return None
    return ListObject(found[0][::-1], level, iterator="reversed()")


def _enumerate(positional: list[Binding], level: int) -> Binding | None:
    if not 1 <= len(positional) <= 2:
        return None
    found = _items_of(positional[:1])
    start = positional[1] if len(positional) == 2 else Const(0)
    if found is None or not isinstance(start, Const) or type(start.value) is not int:
        return None
    first = start.value
    return ListObject(
        [ListObject([Const(first + number), item], level) for number, item in enumerate(found[0])],
        level,
        iterator="enumerate()",
    )


def _zip(positional: list[Binding], level: int) -> Binding | None:
    found = _items_of(positional)
    if found is None:
        return None
    rows: list[Binding] = [ListObject(list(row), level) for row in zip(*found)]
    return ListObject(rows, level, iterator="zip()")


def _extreme(function: Callable[..., object]) -> Callable[[list[Binding], int], Binding | None]:
    """``min``/``max`` of literals, given as one iterable or as several arguments."""

    def fold(positional: list[Binding], _level: int) -> Binding | None:
        # One iterable (whose order does not matter here: a set's neither) or several values.
        found = elements(positional[0]) if len(positional) == 1 else positional
        values = _scalars(found) if found is not None else None
        if values is None:
            return None
        try:
            result = function(values)
        except (TypeError, ValueError):
            return Unknown(f"{function.__name__}() raises on these arguments")
        return Const(result)  # type: ignore[arg-type]

    return fold


def _sum(positional: list[Binding], _level: int) -> Binding | None:
    if not 1 <= len(positional) <= 2:
        return None
    found = elements(positional[0])
    values = _scalars(found) if found is not None else None
    start = _scalars(positional[1:])
    if values is None or start is None:
        return None
    try:
        result = sum(values, *start)  # type: ignore[arg-type]
    except TypeError:
        return Unknown("sum() raises on these arguments")
    return Const(result)


_STR_OF_SCALARS = _scalar_call(str, 1)
_FOLDERS: dict[str, Callable[[list[Binding], int], Binding | None]] = {
    "str": _str,
    "int": _scalar_call(int, 2),
    "float": _scalar_call(float, 1),
    "abs": _scalar_call(abs, 1),
    "round": _scalar_call(round, 2),
    "bool": _bool,
    "list": _sequence,
    "tuple": _sequence,
    "reversed": _reversed,
    "enumerate": _enumerate,
    "zip": _zip,
    "min": _extreme(min),
    "max": _extreme(max),
    "sum": _sum,
}
