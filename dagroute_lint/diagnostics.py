"""Diagnostics, and the filters between rules and output: selection and ``# noqa``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from dagroute_lint.model import Module

# What code-scanning tools show: "error" for a task that will fail, "warning" where the failure is
# possible but unproven.
Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class ImportFix:
    """How to fix a diagnostic by rewriting one name of a ``from module import ...`` statement.

    The statement is the one at the diagnostic's position; ``name`` (as written before any
    ``as``) is to be imported as ``new_name`` from ``new_module`` instead, still bound to the same
    local name. Rules describe fixes with this plain value; ``fix.py`` applies them to the tree.
    """

    module: str
    name: str
    new_module: str
    new_name: str


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One reported problem; ordering is the output order (file, line, column, code).

    ``fix`` describes an automatic fix, when the rule knows a safe one (``--fix``, ``--diff``);
    ``severity`` is the reporting rule's.
    """

    path: str
    line: int
    column: int
    code: str
    message: str
    fix: ImportFix | None = field(default=None, compare=False)
    severity: Severity = field(default="error", compare=False)


def is_suppressed(diagnostic: Diagnostic, module: Module) -> bool:
    """``# noqa`` / ``# noqa: CODE`` on the reported line, or ``# dagroute-lint: noqa`` anywhere."""
    if module.file_noqa:
        return True
    if diagnostic.line not in module.noqa:
        return False
    codes: frozenset[str] | None = module.noqa[diagnostic.line]
    return codes is None or diagnostic.code in codes


def unsuppressed(diagnostics: Iterable[Diagnostic], module: Module) -> list[Diagnostic]:
    return [diagnostic for diagnostic in diagnostics if not is_suppressed(diagnostic, module)]
