"""``itertools`` and ``re`` on values the walk knows, computed as Python computes them.

DAG files build task ids from ``itertools.product(REGIONS, TIERS)`` and clean names with
``re.sub("[^a-z]", "_", name)``; each is a pure function of its arguments. A call the walk
cannot compute (an argument not known, a keyword it does not model, a callable replacement) is
``None`` here, and the caller keeps its old reading. Iterators are given as lists, as the
builtins' ``zip`` and ``enumerate`` are; a result of more than ``MAX_LOOP_ITERATIONS`` items is
not built. Patterns and subjects are bounded in length: the walk runs Python's own ``re``, which
has no time limit.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable

from dagroute_lint.extract.bindings import (
    Binding,
    Imported,
    ListObject,
    Pattern,
    RegexMatch,
    SetObject,
)
from dagroute_lint.extract.containers import consume, elements
from dagroute_lint.extract.evaluator.state import MAX_LOOP_ITERATIONS
from dagroute_lint.model import Const, Operation, SeqExpr, Unknown

Folder = Callable[[list[Binding], dict[str, Binding], int], Binding | None]

# Lengths beyond which a pattern or a subject is not matched here.
MAX_PATTERN = 200
MAX_SUBJECT = 2000
# ``re`` flags by qualified name (the ones that change what a literal pattern matches).
REGEX_FLAGS: dict[str, int] = {
    f"re.{name}": int(getattr(re, name))
    for name in ("IGNORECASE", "I", "MULTILINE", "M", "DOTALL", "S", "VERBOSE", "X", "ASCII", "A")
}


def fold_library(
    qualname: str, positional: list[Binding], named: dict[str, Binding], level: int
) -> Binding | None:
    """``qualname(*positional, **named)`` of ``itertools`` or ``re``, computed; ``None`` when
    the walk cannot. ``level`` is the walk's condition depth, for the lists it makes."""
    folder = _FOLDERS.get(qualname)
    if folder is None:
        return None
    found = folder([literal(value) for value in positional], named, level)
    if isinstance(found, ListObject) and qualname.startswith("itertools."):
        found.iterator = f"{qualname}()"
    return found


def regex_method(
    target: Pattern | RegexMatch, name: str, positional: list[Binding], level: int
) -> Binding | None:
    """``PATTERN.sub(...)`` of a compiled pattern, ``match.group(1)`` of a match."""
    positional = [literal(value) for value in positional]
    if isinstance(target, Pattern):
        folder = _PATTERN_METHODS.get(name)
        return folder(target, positional, level) if folder is not None else None
    arguments = _scalars(positional)
    if arguments is None:
        return None
    try:
        if name == "group":
            found = target.match.group(*arguments)  # type: ignore[arg-type]
        elif name == "groups" and len(arguments) <= 1:
            found = target.match.groups(*arguments)
        elif name in ("start", "end") and len(arguments) <= 1:
            found = getattr(target.match, name)(*arguments)
        else:
            return None
    except (IndexError, TypeError) as error:
        return Unknown(f"match.{name}() raises {type(error).__name__} on these arguments")
    return _value(found, level)


def literal(value: Binding) -> Binding:
    """An f-string of literals (``f"{name}-{tier}"``, which the walk keeps as an operation
    for resolve) as the string it is, so that a function of strings can be computed on it."""
    text = _text(value)
    return Const(text) if text is not None else value


def _text(value: Binding) -> str | None:
    if isinstance(value, Const):
        return value.value if isinstance(value.value, str) else None
    if not isinstance(value, Operation) or value.op != "fstring":
        return None
    parts: list[str] = []
    for part in value.operands:
        if isinstance(part, Operation) and part.op == "field":
            shown, conversion, spec = part.operands
            if not isinstance(shown, Const) or not isinstance(conversion, Const):
                return None
            converted = CONVERSIONS.get(conversion.value)
            if converted is None or spec != Const(""):
                return None  # (a format spec is left to resolve, which bounds its width)
            parts.append(str(converted(shown.value)))
        else:
            text = _text(part)
            if text is None:
                return None
            parts.append(text)
    return "".join(parts)


# f-string conversions: ``{x}``, ``{x!s}``, ``{x!r}``, ``{x!a}``.
CONVERSIONS: dict[object, Callable[[object], object]] = {
    None: lambda shown: shown,
    "": lambda shown: shown,
    "s": str,
    "r": repr,
    "a": ascii,
}


# --- itertools ---------------------------------------------------------------------------------


def _ordered(value: Binding) -> list[Binding] | None:
    """The items iterating ``value`` yields, in order: a set's order is its hashes'
    (randomised per process for strings), so a set gives none; ``A + B`` of sequences is
    theirs, one after the other."""
    if isinstance(value, Operation) and value.op == "add":
        found = [_ordered(operand) for operand in value.operands]
        if any(items is None for items in found) or not all(
            isinstance(operand, SeqExpr) for operand in value.operands
        ):
            return None
        return [item for items in found for item in items or ()]
    if isinstance(value, SetObject):
        return None
    items = elements(value)
    if items is not None:
        consume(value)
    return items


def _all_ordered(values: list[Binding]) -> list[list[Binding]] | None:
    found = [_ordered(value) for value in values]
    return None if any(items is None for items in found) else found  # type: ignore[return-value]


def _integer(value: Binding | None) -> int | None:
    if isinstance(value, Const) and type(value.value) is int:
        return value.value
    return None


def _rows(rows: list[tuple[Binding, ...]], level: int) -> Binding:
    return ListObject([ListObject(list(row), level) for row in rows], level)


def _too_many(count: int, what: str) -> Unknown | None:
    if count > MAX_LOOP_ITERATIONS:
        return Unknown(f"{what} of more than {MAX_LOOP_ITERATIONS} items")
    return None


def _product(positional: list[Binding], named: dict[str, Binding], level: int) -> Binding | None:
    repeat = _integer(named.get("repeat", Const(1)))
    found = _all_ordered(positional)
    if found is None or repeat is None or set(named) - {"repeat"} or repeat < 0:
        return None
    pools = found * repeat
    too_many = _too_many(math.prod(len(pool) for pool in pools), "itertools.product()")
    return too_many or _rows(list(itertools.product(*pools)), level)


def _chain(positional: list[Binding], named: dict[str, Binding], level: int) -> Binding | None:
    found = _all_ordered(positional)
    if found is None or named:
        return None
    return _too_many(sum(map(len, found)), "itertools.chain()") or ListObject(
        [item for items in found for item in items], level
    )


def _from_iterable(
    positional: list[Binding], named: dict[str, Binding], level: int
) -> Binding | None:
    outer = _ordered(positional[0]) if len(positional) == 1 else None
    return _chain(outer, named, level) if outer is not None else None


def _zip_longest(
    positional: list[Binding], named: dict[str, Binding], level: int
) -> Binding | None:
    found = _all_ordered(positional)
    if found is None or set(named) - {"fillvalue"}:
        return None
    fill = named.get("fillvalue", Const(None))
    return _rows(list(itertools.zip_longest(*found, fillvalue=fill)), level)


def _islice(positional: list[Binding], named: dict[str, Binding], level: int) -> Binding | None:
    if named or not 2 <= len(positional) <= 4:
        return None
    items = _ordered(positional[0])
    bounds: list[int | None] = []
    for value in positional[1:]:
        if not isinstance(value, Const) or not (value.value is None or type(value.value) is int):
            return None
        bounds.append(value.value)
    if items is None:
        return None
    try:
        return ListObject(list(itertools.islice(items, *bounds)), level)
    except ValueError:
        return Unknown("itertools.islice() raises on these arguments")


def _choose(function: Callable[..., object], count: Callable[[int, int], int]) -> Folder:
    """``combinations(xs, r)`` and ``permutations(xs, r=None)``, bounded before they are
    built."""
    name = f"itertools.{function.__name__}()"

    def fold(positional: list[Binding], named: dict[str, Binding], level: int) -> Binding | None:
        arguments = [*positional, *named.values()]
        items = _ordered(arguments[0]) if 1 <= len(arguments) <= 2 else None
        size = _integer(arguments[1]) if len(arguments) == 2 else None
        if len(arguments) == 1 and function is itertools.permutations and items is not None:
            size = len(items)
        if items is None or size is None or size < 0 or set(named) - {"r"}:
            return None
        made = count(len(items), size) if size <= len(items) else 0
        too_many = _too_many(made, name)
        return too_many or _rows(list(function(items, size)), level)  # type: ignore[call-overload]

    return fold


# --- re ----------------------------------------------------------------------------------------


def _scalars(values: list[Binding]) -> list[str | int | float | bool | None] | None:
    found = [value.value for value in values if isinstance(value, Const)]
    return found if len(found) == len(values) else None


def _value(found: object, level: int) -> Binding:
    if isinstance(found, (tuple, list)):
        return ListObject([_value(item, level) for item in found], level)
    if isinstance(found, dict):
        return Unknown("a dict of match groups")
    return Const(found)  # type: ignore[arg-type]


def _pattern(value: Binding, flags: Binding | None) -> re.Pattern[str] | Unknown | None:
    """The compiled pattern a ``re`` function is given: a literal (with literal flags) or a
    ``re.compile`` result; ``None`` when the walk does not know it."""
    if isinstance(value, Pattern):
        if flags is not None:
            return None  # (Python refuses flags with a compiled pattern)
        text, number = value.pattern, value.flags
    else:
        if isinstance(flags, Imported) and flags.qualname in REGEX_FLAGS:
            flags = Const(REGEX_FLAGS[flags.qualname])
        given = _integer(flags) if flags is not None else 0
        if not isinstance(value, Const) or not isinstance(value.value, str) or given is None:
            return None
        text, number = value.value, given
    if len(text) > MAX_PATTERN:
        return Unknown(f"a regular expression longer than {MAX_PATTERN} characters")
    try:
        return re.compile(text, number)
    except re.error as error:
        return Unknown(f"re.error: {error}")


def _subject(value: Binding) -> str | None:
    if isinstance(value, Const) and isinstance(value.value, str):
        return value.value if len(value.value) <= MAX_SUBJECT else None
    return None


def _regex_call(method: str, takes: tuple[str, ...]) -> Folder:
    """``re.<method>(pattern, *takes, flags=0)``: the pattern compiled, then its method."""

    def fold(positional: list[Binding], named: dict[str, Binding], level: int) -> Binding | None:
        names = ("pattern", *takes, "flags")
        if len(positional) > len(names) or set(named) - set(names[len(positional) :]):
            return None
        given = dict(zip(names, positional, strict=False)) | named
        if "pattern" not in given:
            return None
        compiled = _pattern(given.pop("pattern"), given.pop("flags", None))
        if not isinstance(compiled, re.Pattern):
            return compiled
        return _run(compiled, method, [given[name] for name in takes if name in given], level)

    return fold


def _run(
    compiled: re.Pattern[str], method: str, arguments: list[Binding], level: int
) -> Binding | None:
    """``compiled.<method>(*arguments)``: a string for ``sub``, a list for ``split`` and
    ``findall``, a match (or ``None``) for ``match``, ``search`` and ``fullmatch``."""
    at = 1 if method == "sub" else 0  # where the subject is: after ``sub``'s replacement
    if len(arguments) <= at:
        return None
    subject = _subject(arguments[at])
    head = _scalars(arguments[:at])
    tail = _scalars(arguments[at + 1 :])
    if (
        subject is None
        or head is None
        or tail is None
        or not all(isinstance(value, str) for value in head)
        or not all(type(value) is int for value in tail)
    ):
        return None
    try:
        found = getattr(compiled, method)(*head, subject, *tail)
    except (re.error, TypeError, IndexError) as error:
        return Unknown(f"re.{method}() raises {type(error).__name__} on these arguments")
    if isinstance(found, re.Match):
        return RegexMatch(found)
    return _value(found, level)


def _compile(positional: list[Binding], named: dict[str, Binding], _level: int) -> Binding | None:
    if not 1 <= len(positional) <= 2 or set(named) - {"flags"}:
        return None
    flags = positional[1] if len(positional) == 2 else named.get("flags")
    compiled = _pattern(positional[0], flags)
    if isinstance(compiled, re.Pattern):
        return Pattern(compiled.pattern, compiled.flags)
    return compiled


def _escape(positional: list[Binding], named: dict[str, Binding], _level: int) -> Binding | None:
    subject = _subject(positional[0]) if len(positional) == 1 and not named else None
    return Const(re.escape(subject)) if subject is not None else None


def _pattern_method(method: str) -> Callable[[Pattern, list[Binding], int], Binding | None]:
    def fold(target: Pattern, positional: list[Binding], level: int) -> Binding | None:
        compiled = _pattern(target, None)
        if not isinstance(compiled, re.Pattern):
            return compiled
        return _run(compiled, method, positional, level)

    return fold


# ``re`` functions: what each takes between the pattern and ``flags``.
_REGEX_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "sub": ("repl", "string", "count"),
    "split": ("string", "maxsplit"),
    "findall": ("string",),
    "match": ("string",),
    "search": ("string",),
    "fullmatch": ("string",),
}
_FOLDERS: dict[str, Folder] = {
    "itertools.product": _product,
    "itertools.chain": _chain,
    "itertools.chain.from_iterable": _from_iterable,
    "itertools.zip_longest": _zip_longest,
    "itertools.islice": _islice,
    "itertools.combinations": _choose(itertools.combinations, math.comb),
    "itertools.permutations": _choose(itertools.permutations, math.perm),
    "re.compile": _compile,
    "re.escape": _escape,
    **{f"re.{name}": _regex_call(name, takes) for name, takes in _REGEX_FUNCTIONS.items()},
}
_PATTERN_METHODS = {name: _pattern_method(name) for name in _REGEX_FUNCTIONS}
