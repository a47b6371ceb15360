"""Fold value expressions to Python values across the repository, without importing anything.

A ``Ref`` is looked up in the module that defines it, found by name among the repository's
modules; everything else is folded only when every operand is a literal. Whatever depends on the
environment stays ``Unresolved`` with the reason, because a wrong value is worse than an honest
unknown.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from datetime import timedelta
from pathlib import PurePosixPath
from typing import Callable, Optional, Union

from dagroute_lint.catalog.airflow_names import NOT_OPERATOR_BASES
from dagroute_lint.model import (
    ClassInfo,
    Const,
    DictExpr,
    Expr,
    Module,
    Operation,
    Ref,
    SeqExpr,
    Subscript,
    Unknown,
)

# Longest string a folded operation may produce: routing values are short, hostile inputs are not.
MAX_FOLDED_LENGTH = 10_000
MAX_DEPTH = 64
MAX_FOLDED_NUMBER = 10**15
_WIDE_FORMAT = re.compile(r"\d{4,}")


@dataclass(frozen=True)
class Known:
    value: object


@dataclass(frozen=True)
class Unresolved:
    reason: str


Resolved = Union[Known, Unresolved]
ModuleLookup = Callable[[str], Optional[Module]]


class SymbolTable:
    """Evaluates expressions, following ``Ref``s into other modules through ``lookup``."""

    def __init__(self, lookup: ModuleLookup) -> None:
        self._lookup = lookup

    # --- references ----------------------------------------------------------------------------

    def deref(self, expr: Expr, depth: int = 0) -> Expr:
        """Follow ``Ref``s to the expression that defines them (or an ``Unknown`` saying why)."""
        while isinstance(expr, Ref):
            if depth > MAX_DEPTH:
                return Unknown(f"'{expr.qualname}' refers to itself")
            expr = self._definition(expr.qualname)
            depth += 1
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
            return Unresolved("expression nested too deeply")
        expr = self.deref(expr, depth)
        if isinstance(expr, Const):
            return Known(expr.value)
        if isinstance(expr, Unknown):
            return Unresolved(expr.reason)
        if isinstance(expr, SeqExpr):
            values = []
            for item in expr.items:
                resolved = self.evaluate(item, depth + 1)
                if isinstance(resolved, Unresolved):
                    return resolved
                values.append(resolved.value)
            return Known(values)
        if isinstance(expr, DictExpr):
            return self._evaluate_dict(expr, depth)
        if isinstance(expr, Subscript):
            return self._subscript(expr, depth)
        if isinstance(expr, Operation):
            return self._operation(expr, depth)
        return Unresolved("unsupported expression")

    def _evaluate_dict(self, expr: DictExpr, depth: int) -> Resolved:
        result: dict[object, object] = {}
        for key, value in expr.parts:
            resolved_value = self.evaluate(value, depth + 1)
            if isinstance(resolved_value, Unresolved):
                return resolved_value
            if key is None:
                if not isinstance(resolved_value.value, dict):
                    return Unresolved("a ** spread of something that is not a dict")
                result.update(resolved_value.value)
                continue
            resolved_key = self.evaluate(key, depth + 1)
            if isinstance(resolved_key, Unresolved):
                return resolved_key
            if not _hashable(resolved_key.value):
                return Unresolved("an unhashable dict key")
            result[resolved_key.value] = resolved_value.value
        return Known(result)

    def lookup_key(self, expr: Expr, key: str, depth: int = 0) -> Resolved | None:
        """The value ``expr[key]`` would have, or ``None`` when the dict certainly lacks ``key``.

        Works on the dict's structure, so ``{**unknown, "queue": "q"}`` still answers ``queue``
        while any other key is unresolved.
        """
        if depth > MAX_DEPTH:
            return Unresolved("expression nested too deeply")
        expr = self.deref(expr, depth)
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
        resolved = self.evaluate(expr, depth + 1)
        if isinstance(resolved, Unresolved):
            return resolved
        if isinstance(resolved.value, dict):
            return Known(resolved.value[key]) if key in resolved.value else None
        if resolved.value is None:  # ``default_args=None``, also from ``CONFIG.get(...)``
            return None
        return Unresolved("not a dict")

    def _lookup_in_get(self, expr: Operation, key: str, depth: int) -> Resolved | None:
        """``key`` of ``mapping.get(name, default)``, found by structure like ``lookup_key``:
        ``DAG(**{"start_date": datetime(...), "default_args": {...}})`` still answers."""
        mapping, name, default = expr.operands
        resolved_name = self.evaluate(name, depth + 1)
        if isinstance(resolved_name, Unresolved) or not isinstance(resolved_name.value, str):
            return Unresolved("dict.get of a key that is not a constant")
        found = self.lookup_key(mapping, resolved_name.value, depth + 1)
        if found is None:
            return self.lookup_key(default, key, depth + 1)
        if isinstance(found, Unresolved):
            return found
        if isinstance(found.value, dict):
            return Known(found.value[key]) if key in found.value else None
        if found.value is None:
            return None
        return Unresolved("not a dict")

    def _subscript(self, expr: Subscript, depth: int) -> Resolved:
        key = self.evaluate(expr.key, depth + 1)
        if isinstance(key, Unresolved):
            return key
        if isinstance(key.value, str):
            found = self.lookup_key(expr.target, key.value, depth + 1)
            if found is None:
                return Unresolved(f"key '{key.value}' is missing (KeyError at parse time)")
            return found
        target = self.evaluate(expr.target, depth + 1)
        if isinstance(target, Unresolved):
            return target
        try:
            return Known(target.value[key.value])  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return Unresolved("subscript that fails at parse time")

    def _operation(self, expr: Operation, depth: int) -> Resolved:
        operands: list[object] = []
        for operand in expr.operands:
            resolved = self.evaluate(operand, depth + 1)
            if isinstance(resolved, Unresolved):
                return resolved
            operands.append(resolved.value)
        try:
            value = _fold(expr.op, operands)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
            return Unresolved(f"'{expr.op}' operation that fails at parse time")
        if isinstance(value, Unresolved):
            return value
        if isinstance(value, (str, list)) and len(value) > MAX_FOLDED_LENGTH:
            return Unresolved("value too long to fold")
        return Known(value)


def _fold(op: str, operands: list[object]) -> object:
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
    if op == "field":
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
    return Unresolved(f"unsupported operation '{op}'")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def as_expr(value: object) -> Expr:
    """A folded Python value back as an expression, to hand to extraction as an external."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return Const(value)
    if isinstance(value, (list, tuple)):
        return SeqExpr(tuple(as_expr(item) for item in value))
    if isinstance(value, dict):
        return DictExpr(tuple((as_expr(key), as_expr(item)) for key, item in value.items()))
    return Unknown("not a literal value")


def _hashable(value: object) -> bool:
    return isinstance(value, (str, int, float, bool, type(None)))
