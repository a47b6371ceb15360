"""Fold value expressions to Python values across the repository, without importing anything.

A ``Ref`` is looked up in the module that defines it, found by name among the repository's
modules; everything else is folded only when every operand is a literal. Whatever depends on the
environment stays ``Unresolved`` with the reason, because a wrong value is worse than an honest
unknown.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import PurePosixPath

from dagroute_lint.catalog.airflow_names import NOT_OPERATOR_BASES
from dagroute_lint.model import (
    MAX_CANDIDATES,
    ClassInfo,
    Const,
    DictExpr,
    Expr,
    Module,
    OneOf,
    Operation,
    OperationName,
    Position,
    Ref,
    SeqExpr,
    Site,
    Subscript,
    Unknown,
)
from dagroute_lint.records import record

# Longest string a folded operation may produce: routing values are short, hostile inputs are not.
MAX_FOLDED_LENGTH = 10_000
MAX_DEPTH = 64
MAX_FOLDED_NUMBER = 10**15
_WIDE_FORMAT = re.compile(r"\d{4,}")


@record
class Known:
    value: object


@record
class Unresolved:
    """A value that cannot be known statically, and why.

    ``candidates``, when not empty, are every value it can take (``"a" if x else "b"``): Airflow
    holds one of them. ``ABSENT`` among them means a dict may lack the key looked up. ``at`` is
    where the expression that made it unknown is written (``Unknown.at``), where that is known.
    """

    reason: str
    candidates: tuple[object, ...] = ()
    at: Site | None = None


class _Absent:
    """The candidate "the key is not there": a lower level of precedence decides then."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


Resolved = Known | Unresolved
ModuleLookup = Callable[[str], Module | None]


class SymbolTable:
    """Evaluates expressions, following ``Ref``s into other modules through ``lookup``."""

    def __init__(self, lookup: ModuleLookup) -> None:
        self._lookup = lookup
        # Each constant folded once per run: a candidate set can refer to another module's
        # candidate set, which must not be folded again for every reference to it. What a name
        # folds to must not depend on where the table met it first (a warm run resolves fewer
        # tasks, in another order), so a fold is kept with what it depended on: one that kept
        # within the depth bound with how deep it went below the name, to be used again wherever
        # it would keep within it too; one that met the bound by the depth it started at.
        self._folded: dict[str, tuple[Resolved, int]] = {}
        self._bounded: dict[tuple[str, int], Resolved] = {}
        self._bounds_met = 0  # how many times a walk stopped at MAX_DEPTH, so far
        self._deepest = 0  # the deepest level the current fold reached
        # ``defined_as`` per name: asked for each field of each task, answered once.
        self._defined: dict[str, str | Unresolved] = {}

    # --- references ----------------------------------------------------------------------------

    def deref(self, expr: Expr, depth: int = 0) -> Expr:
        """Follow ``Ref``s to the expression that defines them (or an ``Unknown`` saying why)."""
        while isinstance(expr, Ref):
            if depth > MAX_DEPTH:
                self._bounds_met += 1
                return Unknown(f"'{expr.qualname}' refers to itself")
            expr = self._definition(expr.qualname)
            depth += 1
        self._deepest = max(self._deepest, depth)
        return expr

    def _definition(self, qualname: str) -> Expr:
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = self._lookup(".".join(parts[:cut]))
            if module is None:
                continue
            name, rest = parts[cut], parts[cut + 1 :]
            dotted = ".".join(parts[cut:])
            if rest and dotted in module.constants:  # a class attribute: ``QUEUE.SNAP``
                return module.constants[dotted]
            if name not in module.constants:
                submodule = self._lookup(".".join(parts[: cut + 1]))
                if submodule is not None:
                    continue
                return Unknown(f"'{name}' is not a constant of module {module.module_name}")
            if rest:
                return Unknown(f"attribute of '{module.module_name}.{name}'")
            return module.constants[name]
        return Unknown(f"'{qualname}' is not defined in the repository")

    # --- classes -------------------------------------------------------------------------------

    def class_info(self, qualname: str) -> ClassInfo | None:
        """The repository class named ``qualname`` (``module.Class``, ``module.Outer.Inner``)."""
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = self._lookup(".".join(parts[:cut]))
            if module is not None:
                return module.classes.get(".".join(parts[cut:]))
        return None

    def defined_as(self, qualname: str) -> str | Unresolved:
        """The name a class imported by ``qualname`` is defined under: a repository module that
        imports it (``from tests_common.compat import EmptyOperator``, where ``compat`` imports
        the standard provider's) re-exports the class it imported, which is what Airflow holds.
        A name the module binds to something else than one import (a class of its own, a
        function) is ``qualname`` itself; one it binds conditionally is unresolved, with why."""
        found = self._defined.get(qualname)
        if found is None:
            found = self._defined[qualname] = self._defined_as(qualname)
        return found

    def _defined_as(self, qualname: str) -> str | Unresolved:
        for _ in range(MAX_DEPTH):
            parts = qualname.split(".")
            for cut in range(len(parts) - 1, 0, -1):
                module = self._lookup(".".join(parts[:cut]))
                if module is None or self._lookup(".".join(parts[: cut + 1])) is not None:
                    continue
                bound = module.constants.get(parts[cut])
                if bound is None or parts[cut] in module.classes:
                    return qualname
                if not isinstance(bound, Ref):
                    why = bound.reason if isinstance(bound, Unknown) else "bound conditionally"
                    return Unresolved(
                        f"the class '{parts[cut]}' of module {module.module_name} is not known: "
                        + why
                    )
                qualname = ".".join((bound.qualname, *parts[cut + 1 :]))
                break
            else:
                return qualname  # not the repository's: Airflow's or an installed package's
        self._bounds_met += 1
        return Unresolved(f"'{qualname}' refers to itself")

    def class_site(self, qualname: str) -> Site | None:
        """Where the repository class ``qualname`` is defined: the line of the ``class``
        statement that binds it at module level (a nested class: its outermost class's)."""
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = self._lookup(".".join(parts[:cut]))
            if module is not None:
                line = module.bound_at.get(parts[cut])
                return None if line is None else Site(module.path, Position(line, 1))
        return None

    def class_routes(self, qualname: str, depth: int = 0) -> tuple[str, frozenset[str]] | None:
        """Routing fields a repository class (or a repository base of it) may set in its own
        code, with the class that does; ``None`` when it sets none or is not in the repository."""
        info = self.class_info(qualname) if depth <= MAX_DEPTH else None
        if info is None:
            return None
        if info.routes:
            return qualname, frozenset(info.routes)
        for base in info.bases:
            found = self.class_routes(base, depth + 1)
            if found is not None:
                return found
        return None

    def can_be_operator(self, qualname: str, depth: int = 0) -> bool:
        """False for a repository class that cannot be an operator (a dataclass, a NamedTuple,
        a class with no operator base); true for anything not known to be otherwise."""
        info = self.class_info(qualname) if depth <= MAX_DEPTH else None
        if info is None:
            return True
        if not info.operator:
            return False
        return any(
            base not in NOT_OPERATOR_BASES and self.can_be_operator(base, depth + 1)
            for base in info.bases
        )

    # --- evaluation ----------------------------------------------------------------------------

    def evaluate(self, expr: Expr, depth: int = 0) -> Resolved:
        if depth > MAX_DEPTH:
            self._bounds_met += 1
            return Unresolved("expression nested too deeply")
        self._deepest = max(self._deepest, depth)
        if isinstance(expr, Ref):
            return self._fold(expr, depth)
        if isinstance(expr, Const):
            return Known(expr.value)
        if isinstance(expr, Unknown):
            return Unresolved(expr.reason, at=expr.at)
        if isinstance(expr, OneOf):
            options = [self.evaluate(option, depth + 1) for option in expr.options]
            return over(options, lambda values: Known(values[0]), expr.reason, each=True)
        if isinstance(expr, SeqExpr):
            items = [self.evaluate(item, depth + 1) for item in expr.items]
            return over(items, lambda values: Known(list(values)))
        if isinstance(expr, DictExpr):
            return self._evaluate_dict(expr, depth)
        if isinstance(expr, Subscript):
            return self._subscript(expr, depth)
        if isinstance(expr, Operation):
            return self._operation(expr, depth)
        return Unresolved("unsupported expression")

    def _fold(self, ref: Ref, depth: int) -> Resolved:
        """``evaluate`` of a name, the same answer as folding it again from ``depth``."""
        kept = self._folded.get(ref.qualname)
        if kept is not None and depth + kept[1] <= MAX_DEPTH:
            self._deepest = max(self._deepest, depth + kept[1])
            return kept[0]
        bounded = self._bounded.get((ref.qualname, depth))
        if bounded is not None:
            self._bounds_met += 1
            return bounded
        met, outer = self._bounds_met, self._deepest
        self._deepest = depth
        found = self.evaluate(self.deref(ref, depth), depth + 1)
        if self._bounds_met == met:
            self._folded[ref.qualname] = (found, self._deepest - depth)
        else:
            self._bounded[(ref.qualname, depth)] = found
        self._deepest = max(outer, self._deepest)
        return found

    def _evaluate_dict(self, expr: DictExpr, depth: int) -> Resolved:
        parts: list[Resolved] = []
        for key, value in expr.parts:
            parts.append(Known(None) if key is None else self.evaluate(key, depth + 1))
            parts.append(self.evaluate(value, depth + 1))
        spreads = [key is None for key, _ in expr.parts]
        return over(parts, lambda values: _build_dict(values, spreads))

    def lookup_key(self, expr: Expr, key: str, depth: int = 0) -> Resolved | None:
        """The value ``expr[key]`` would have, or ``None`` when the dict certainly lacks ``key``.

        Works on the dict's structure, so ``{**unknown, "queue": "q"}`` still answers ``queue``
        while any other key is unresolved. A dict that is one of several may lack the key in
        some of them: ``ABSENT`` is then among the candidates.
        """
        if depth > MAX_DEPTH:
            self._bounds_met += 1
            return Unresolved("expression nested too deeply")
        self._deepest = max(self._deepest, depth)
        expr = self.deref(expr, depth)
        if isinstance(expr, OneOf):
            keyed = [self.lookup_key(option, key, depth + 1) for option in expr.options]
            if all(each is None for each in keyed):
                return None
            present = [Known(ABSENT) if each is None else each for each in keyed]
            return over(present, lambda values: Known(values[0]), expr.reason, each=True)
        if isinstance(expr, DictExpr):
            for part_key, value in reversed(expr.parts):
                if part_key is None:
                    found = self.lookup_key(value, key, depth + 1)
                    if found is not None:
                        return found
                    continue
                resolved_key = self.evaluate(part_key, depth + 1)
                if isinstance(resolved_key, Unresolved):
                    return Unresolved(f"a dict key is not a constant: {resolved_key.reason}")
                if resolved_key.value == key:
                    return self.evaluate(value, depth + 1)
            return None
        if isinstance(expr, Const) and expr.value is None:
            return None
        if isinstance(expr, Operation) and expr.op == "get":  # ``CONFIG.get("default_args")``
            return self._lookup_in_get(expr, key, depth)
        if isinstance(expr, Operation) and expr.op == "without":
            removed = self.evaluate(expr.operands[1], depth + 1)
            if isinstance(removed, Unresolved):
                return Unresolved(f"a removed dict key is not a constant: {removed.reason}")
            if removed.value == key:
                return None
            return self.lookup_key(expr.operands[0], key, depth + 1)
        return _key_of(self.evaluate(expr, depth + 1), key)

    def _lookup_in_get(self, expr: Operation, key: str, depth: int) -> Resolved | None:
        """``key`` of ``mapping.get(name, default)``, found by structure like ``lookup_key``:
        ``DAG(**{"start_date": datetime(...), "default_args": {...}})`` still answers."""
        mapping, name, default = expr.operands
        resolved_name = self.evaluate(name, depth + 1)
        if isinstance(resolved_name, Unresolved) or not isinstance(resolved_name.value, str):
            return Unresolved("dict.get of a key that is not a constant")
        located, reached = self._key_expression(mapping, resolved_name.value, depth + 1)
        if isinstance(located, _Absent):
            return self.lookup_key(default, key, depth + 1)
        if located is not None:  # ``**{"default_args": {"cwd": os.getenv(...)}}``: by structure
            return self.lookup_key(located, key, reached + 1)
        found = self.lookup_key(mapping, resolved_name.value, depth + 1)
        if found is None:
            return self.lookup_key(default, key, depth + 1)
        if isinstance(found, Unresolved) and ABSENT in found.candidates:
            return Unresolved("dict.get of a key that a candidate dict may lack")
        return _key_of(found, key)

    def _key_expression(
        self, expr: Expr, name: str, depth: int
    ) -> tuple[Expr | _Absent | None, int]:
        """The expression a dict built of literals and spreads holds at ``name`` (``ABSENT``
        when it certainly lacks it), so that a key of that value is looked up by structure too:
        an unknown value beside it in the nested dict says nothing of it. ``None`` when the
        structure cannot tell (a key that is not a constant, a value that is not a dict). With
        it, the depth it was found at, which the look-up inside it goes on from."""
        if depth > MAX_DEPTH:
            return None, depth  # lookup_key meets the bound and says so
        expr = self.deref(expr, depth)
        if isinstance(expr, Const) and expr.value is None:
            return ABSENT, depth
        if not isinstance(expr, DictExpr):
            return None, depth
        for part_key, value in reversed(expr.parts):
            if part_key is None:
                found, reached = self._key_expression(value, name, depth + 1)
                if isinstance(found, _Absent):
                    continue
                return found, reached
            resolved_key = self.evaluate(part_key, depth + 1)
            if isinstance(resolved_key, Unresolved):
                return None, depth
            if resolved_key.value == name:
                return value, depth
        return ABSENT, depth

    def _subscript(self, expr: Subscript, depth: int) -> Resolved:
        key = self.evaluate(expr.key, depth + 1)
        keys = choices(key)
        if keys is None:
            return key
        results: list[Resolved] = []
        for each in keys:
            if isinstance(each, str):
                found = self.lookup_key(expr.target, each, depth + 1)
                if found is None:
                    found = Unresolved(f"key '{each}' is missing (KeyError at parse time)")
                results.append(_present(found))
                continue
            target = self.evaluate(expr.target, depth + 1)
            results.append(over([target], _item_of(each)))
        return over(results, lambda values: Known(values[0]), each=True)

    def _operation(self, expr: Operation, depth: int) -> Resolved:
        operands = [self.evaluate(operand, depth + 1) for operand in expr.operands]
        return over(operands, lambda values: _apply(expr.op, values))


def choices(resolved: Resolved) -> list[object] | None:
    """The values ``resolved`` may be: one when known, its candidates, ``None`` when unknown."""
    if isinstance(resolved, Known):
        return [resolved.value]
    return list(resolved.candidates) if resolved.candidates else None


def candidates(values: Sequence[object], reason: str) -> Resolved:
    """One of ``values``: known when they are all the same, unknown when there are too many."""
    distinct: list[object] = []
    for value in values:
        if not any(type(value) is type(seen) and value == seen for seen in distinct):
            distinct.append(value)
    if len(distinct) == 1:
        return Known(distinct[0])
    if len(distinct) > MAX_CANDIDATES:
        return Unresolved(f"{reason}, with more than {MAX_CANDIDATES} possible values")
    return Unresolved(reason, tuple(distinct))


def over(
    parts: Sequence[Resolved],
    build: Callable[[list[object]], Resolved],
    reason: str | None = None,
    *,
    each: bool = False,
) -> Resolved:
    """``build`` applied to every combination of the parts' candidates (``each``: to every
    candidate of any one part, for alternatives). Any part unknown: that part's reason. The
    reason of a result with candidates is ``reason``, else the first such part's."""
    options: list[list[object]] = []
    for part in parts:
        found = choices(part)
        if found is None:
            return part
        if reason is None and isinstance(part, Unresolved):
            reason = part.reason
        options.append(found)
    reason = reason or "one of several values"
    if each:
        combinations: list[list[object]] = [[value] for found in options for value in found]
    else:
        size = 1
        for found in options:
            size *= len(found)
        if size > MAX_CANDIDATES:
            return Unresolved(f"{reason}, with more than {MAX_CANDIDATES} possible values")
        combinations = [list(values) for values in itertools.product(*options)]
    if len(combinations) == 1:
        return build(combinations[0])
    results: list[object] = []
    for values in combinations:
        built = build(values)
        found = choices(built)
        if found is None:
            return built
        results.extend(found)
    return candidates(results, reason)


def _present(found: Resolved) -> Resolved:
    """A subscript's value where the key may be absent: that case fails the file's import,
    so Airflow holds no task from it."""
    if isinstance(found, Unresolved) and ABSENT in found.candidates:
        kept = [value for value in found.candidates if value is not ABSENT]
        return candidates(kept, found.reason)
    return found


def _key_of(resolved: Resolved, key: str) -> Resolved | None:
    """``key`` of a folded dict (or of each candidate dict), ``None`` when certainly absent."""
    if isinstance(resolved, Unresolved) and not resolved.candidates:
        return resolved
    values = choices(resolved) or []
    found: list[object] = []
    for value in values:
        if isinstance(value, dict):
            found.append(value.get(key, ABSENT))
        elif value is None:  # ``default_args=None``, also from ``CONFIG.get(...)``
            found.append(ABSENT)
        else:
            return Unresolved("not a dict")
    if all(value is ABSENT for value in found):
        return None
    reason = resolved.reason if isinstance(resolved, Unresolved) else "a dict of candidates"
    return candidates(found, reason)


def _build_dict(values: list[object], spreads: list[bool]) -> Resolved:
    result: dict[object, object] = {}
    for index, spread in enumerate(spreads):
        key, value = values[2 * index], values[2 * index + 1]
        if spread:
            if not isinstance(value, dict):
                return Unresolved("a ** spread of something that is not a dict")
            result.update(value)
            continue
        if not _hashable(key):
            return Unresolved("an unhashable dict key")
        result[key] = value
    return Known(result)


def _item_of(key: object) -> Callable[[list[object]], Resolved]:
    def item(values: list[object]) -> Resolved:
        try:
            return Known(values[0][key])  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return Unresolved("subscript that fails at parse time")

    return item


def _apply(op: OperationName, operands: list[object]) -> Resolved:
    try:
        value = _fold(op, operands)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
        return Unresolved(f"'{op}' operation that fails at parse time")
    if isinstance(value, Unresolved):
        return value
    if isinstance(value, (str, list)) and len(value) > MAX_FOLDED_LENGTH:
        return Unresolved("value too long to fold")
    return Known(value)


def _fold(op: OperationName, operands: list[object]) -> object:
    """Apply one pure operation to literal operands, refusing the few that could blow up."""
    if op == "add":
        left, right = operands
        if isinstance(left, (str, int, float, list)) and type(left) is type(right):
            return left + right  # type: ignore[operator]
        return Unresolved("'+' on values of different types")
    if op == "mul":
        # Numbers only (``timeout=60 * 60 * 6``): ``"ab" * 10**9`` must never be built.
        if not all(_number(operand) for operand in operands):
            return Unresolved("'*' on values that are not numbers")
        product = operands[0] * operands[1]  # type: ignore[operator]
        if not abs(product) <= MAX_FOLDED_NUMBER:  # NaN fails this too
            return Unresolved("a product too large to fold")
        return product
    if op == "timedelta":
        args, kwargs = operands
        if (
            not isinstance(args, list)
            or not isinstance(kwargs, dict)
            or not all(_number(value) for value in [*args, *kwargs.values()])
        ):
            return Unresolved("a timedelta of values that are not numbers")
        return timedelta(*args, **{str(key): value for key, value in kwargs.items()})
    if op == "mod":
        template, values = operands
        if not isinstance(template, str) or _WIDE_FORMAT.search(template):
            return Unresolved("'%' formatting that cannot be folded")
        arguments = tuple(values) if isinstance(values, list) else values
        return template % arguments
    if op == "format":
        template, args, kwargs = operands
        if (
            not isinstance(template, str)
            or not isinstance(args, list)
            or not isinstance(kwargs, dict)
            or _WIDE_FORMAT.search(template)
            or any(not isinstance(value, (str, int, float, bool)) for value in args)
        ):
            return Unresolved("str.format that cannot be folded")
        return template.format(*args, **{str(key): value for key, value in kwargs.items()})
    if op in ("path", "path_name", "path_stem", "path_splitext"):
        (path,) = operands
        if not isinstance(path, str):
            return Unresolved("a path that is not a string")
        if op == "path_splitext":
            return list(posixpath.splitext(path))
        pure = PurePosixPath(path.replace("\\", "/"))
        return {"path": str(pure), "path_name": pure.name, "path_stem": pure.stem}[op]
    if op == "replace":
        text, old, new = operands
        if not all(isinstance(part, str) for part in operands) or (len(str(old)) == 0):
            return Unresolved("str.replace that cannot be folded")
        return str(text).replace(str(old), str(new))
    if op == "without":  # ``del d[k]``, ``d.pop(k)``
        mapping, key = operands
        if not isinstance(mapping, dict):
            return Unresolved("a key removed from something that is not a dict")
        return {name: item for name, item in mapping.items() if name != key}
    if op == "get":  # ``d.get(k, default)``
        mapping, key, default = operands
        if not isinstance(mapping, dict) or not _hashable(key):
            return Unresolved("dict.get on something that is not a dict")
        return mapping.get(key, default)
    if op == "len":  # ``len(x)`` of a value of another module
        (value,) = operands
        if not isinstance(value, (str, list, dict)):
            return Unresolved("len() of a value that has no length")
        return len(value)
    if op == "fstring":
        return "".join(str(part) for part in operands)
    assert op == "field", op  # the last of OperationName
    value, conversion, spec = operands
    if not isinstance(spec, str) or _WIDE_FORMAT.search(spec):
        return Unresolved("f-string format spec that cannot be folded")
    if conversion == "r":
        value = repr(value)
    elif conversion == "s":
        value = str(value)
    elif conversion == "a":
        value = ascii(value)
    return format(value, spec)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _hashable(value: object) -> bool:
    return isinstance(value, (str, int, float, bool, type(None)))
