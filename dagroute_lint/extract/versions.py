"""Airflow's version as the deployment's Python holds it, when the inventory states it.

A flag computed from ``airflow.__version__`` decides which branch of a compatibility shim runs:
given the inventory's ``airflow_version``, the walk computes it as Python would, so that only the
branch that runs builds tasks and imports. The inventory may give major.minor only ("3.3"): the
version is then ``3.3.<micro>`` with the micro part unknown, so what major.minor decides is
decided, and a comparison that reaches the micro part stays undecided (never assumed ``.0``).

Only a plain release (``3``, ``3.3``, ``2.10.5``) is known; a pre-release or local version in the
inventory leaves Airflow's version unknown, as it is without one. The values the walk handles:
the version string (``VersionValue`` with ``text``, or a plain ``Const`` when all three parts are
known), a ``packaging.version.Version`` of a known version string, its ``release``, ``major``,
``minor``, ``micro`` and ``base_version``, comparisons of Versions with Versions and of tuples
with tuples (``compare_ordered``), and ``startswith``/``split`` of the version string.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

from dagroute_lint.catalog.airflow_versions import VERSION_PARSERS, VERSION_TEXTS, version_flag
from dagroute_lint.extract.bindings import Binding, ListObject, Release, VersionValue
from dagroute_lint.model import Const, Expr, SeqExpr, Unknown

# A release as written: one to three dot-separated numbers, nothing else.
_RELEASE = re.compile(r"\d+(?:\.\d+){0,2}")
# Airflow's release has three parts: major.minor.micro.
AIRFLOW_PARTS = 3
# ``Version`` attributes that name one release part, with its index.
_PARTS = {"major": 0, "minor": 1, "micro": 2}


def deployment_release(version: str | None) -> Release | None:
    """Airflow's release from the inventory's ``airflow_version``: ``"3.3"`` is ``(3, 3, None)``;
    ``None`` when it is absent or not a plain release."""
    if version is None or _RELEASE.fullmatch(version.strip()) is None:
        return None
    parts: list[int | None] = [int(part) for part in version.strip().split(".")]
    return tuple(parts + [None] * (AIRFLOW_PARTS - len(parts)))


def version_text(release: Release) -> Const | VersionValue:
    """The version string of ``release``: a literal when every part is known."""
    if None in release:
        return VersionValue(release, text=True)
    return Const(".".join(str(part) for part in release))


def airflow_value(qualname: str, release: Release | None) -> Const | VersionValue | None:
    """What an Airflow name that reads the version holds under ``release``: the version string,
    or an installed package's version flag when the known parts decide it (``None``: the name
    is not one of those, or the flag is undecided)."""
    if release is None:
        return None
    if qualname in VERSION_TEXTS:
        return version_text(release)
    flag = version_flag(qualname)
    if flag is None:
        return None
    ordering, bound = flag
    decided = compare_sequences(ordering, release, bound, same_kind=True)
    return Const(decided) if decided is not None else None


# What reading a distribution's version gives for Airflow's own distributions.
_METADATA_VERSION = frozenset({"importlib.metadata.version", "importlib_metadata.version"})
_AIRFLOW_DISTRIBUTIONS = frozenset({"apache-airflow", "apache-airflow-core"})
VERSION_CALLS = VERSION_PARSERS | _METADATA_VERSION


def called(qualname: str, argument: Binding, release: Release | None) -> Binding | None:
    """``Version(text)``/``parse(text)`` of a known version string, or
    ``importlib.metadata.version("apache-airflow")`` under a known release."""
    if qualname in VERSION_PARSERS:
        return parsed(argument)
    airflow = isinstance(argument, Const) and argument.value in _AIRFLOW_DISTRIBUTIONS
    return version_text(release) if airflow and release is not None else None


def parsed(value: Binding) -> VersionValue | None:
    """``packaging.version.Version(value)`` of a version string the walk knows."""
    if isinstance(value, VersionValue):
        return VersionValue(value.release, text=False)
    if isinstance(value, Const) and isinstance(value.value, str):
        written = value.value.strip()
        if _RELEASE.fullmatch(written) is not None:
            return VersionValue(tuple(int(part) for part in written.split(".")), text=False)
    return None


def attribute(value: VersionValue, attr: str) -> Expr | VersionValue | None:
    """``version.release``, ``.major``/``.minor``/``.micro``, ``.base_version``/``.public`` of a
    ``Version`` (``None``: an attribute not modelled)."""
    if attr == "release":
        return SeqExpr(tuple(part_value(part) for part in value.release))
    if attr in _PARTS:
        index = _PARTS[attr]
        return part_value(value.release[index] if index < len(value.release) else 0)
    if attr in ("base_version", "public"):
        return version_text(value.release)
    if attr in ("is_prerelease", "is_devrelease", "is_postrelease"):
        return Const(False)  # only a plain release is ever known
    return None


# A release part the inventory does not give: some number, 0 or more.
UNKNOWN_PART = Unknown(
    "a part of Airflow's version the inventory's airflow_version does not give", data=True
)
# Values an unknown release part is compared at, its least and one above any real release.
_PART_BOUNDS = (0, 10**9)


def part_value(part: int | None) -> Expr:
    return UNKNOWN_PART if part is None else Const(part)


def method(value: VersionValue, name: str, arguments: list[Binding], level: int) -> Binding | None:
    """``startswith``/``split(".")`` of the version string whose later parts are unknown: what
    its known leading parts decide (``None``: a method or argument not modelled); ``level`` is
    the walk's condition depth, for the list ``split`` makes."""
    if not value.text or len(arguments) != 1 or not isinstance(arguments[0], Const):
        return None
    argument = arguments[0].value
    if name == "split" and argument == ".":
        return ListObject([_part_text(part) for part in value.release], level)
    if name == "startswith" and isinstance(argument, str):
        decided = _starts_with(value.release, argument)
        if decided is not None:
            return Const(decided)
        return Unknown(
            f"whether Airflow's version starts with '{argument}' depends on a part the "
            "inventory's airflow_version does not give",
            data=True,
        )
    return None


def _part_text(part: int | None) -> Expr:
    known = part_value(part)
    return Const(str(known.value)) if isinstance(known, Const) else known


def _starts_with(release: Release, prefix: str) -> bool | None:
    """Whether ``<known parts>.<unknown>`` starts with ``prefix``."""
    known = []
    for part in release:
        if part is None:
            break
        known.append(str(part))
    head = ".".join(known) + "."  # a part follows the known ones
    if head.startswith(prefix):
        return True
    return None if prefix.startswith(head) else False


def compare_ordered(op: Callable[[Any, Any], object], left: Binding, right: Binding) -> bool | None:
    """``left <op> right`` for two ``Version``s (by release, trailing zeros ignored, as
    packaging compares final releases); ``None`` when they are not both Versions or a part that
    decides is unknown."""
    if not isinstance(left, VersionValue) or not isinstance(right, VersionValue):
        return None
    if left.text or right.text:
        return None
    width = max(len(left.release), len(right.release))
    padded = [side.release + (0,) * (width - len(side.release)) for side in (left, right)]
    return compare_sequences(op, padded[0], padded[1], same_kind=True)


def compare_sequences(
    op: Callable[[Any, Any], object],
    left: tuple[object, ...],
    right: tuple[object, ...],
    same_kind: bool = False,
) -> bool | None:
    """Python's ordering of tuples: the first pair of items that differ decides, else the
    lengths. An unknown release part (``None``, ``UNKNOWN_PART``) is some number 0 or more: an
    ordering whose unknown parts are all on one side is monotonic in each, so it is decided when
    it is the same at their least and at a value above any release (``(3, 0, micro) >= (3, 0,
    0)``); any other unknown item leaves the comparison undecided. Equal items make equal
    sequences only when both are known to be tuples (``same_kind``: releases): the walk does not
    keep whether a sequence is a list or a tuple, and a list never equals a tuple."""
    mine, theirs = _scalars(left), _scalars(right)
    if mine is None or theirs is None:
        return None
    one_sided = _PART not in mine or _PART not in theirs
    if op in (operator.eq, operator.ne):
        equal = _lexicographic(operator.eq, mine, theirs)
        if equal is None or (equal and not same_kind):
            return None
        return equal if op is operator.eq else not equal
    if not one_sided:
        return _lexicographic(op, mine, theirs)
    found = {_lexicographic(op, _at(mine, bound), _at(theirs, bound)) for bound in _PART_BOUNDS}
    return found.pop() if len(found) == 1 else None


_PART = object()  # an unknown release part, among the items compared


def _scalars(items: tuple[object, ...]) -> list[object] | None:
    """The items' values; ``_PART`` for an unknown release part; ``None`` if any other is
    unknown."""
    values: list[object] = []
    for item in items:
        if isinstance(item, Const):
            values.append(item.value)
        elif item is None or item == UNKNOWN_PART:
            values.append(_PART)
        elif isinstance(item, int):
            values.append(item)
        else:
            return None
    return values


def _at(values: list[object], bound: int) -> list[object]:
    return [bound if value is _PART else value for value in values]


def _lexicographic(
    op: Callable[[Any, Any], object], left: list[object], right: list[object]
) -> bool | None:
    for mine, theirs in zip(left, right):
        if mine is _PART or theirs is _PART:
            return None
        if mine == theirs:
            continue
        try:
            return bool(op(mine, theirs))
        except TypeError:
            return None
    return bool(op(len(left), len(right)))


def described(value: VersionValue) -> Unknown:
    """The version as a value the model keeps: unknown, with why."""
    if value.text:
        known = ".".join(str(part) for part in value.release if part is not None)
        return Unknown(
            f"Airflow's version {known}.x (the inventory's airflow_version gives no more)",
            data=True,
        )
    return Unknown("a packaging Version object", data=True)
