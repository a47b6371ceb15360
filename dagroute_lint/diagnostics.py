"""Diagnostics, and the filters between rules and output: selection and ``# noqa``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dagroute_lint.model import Module


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One reported problem; ordering is the output order (file, line, column, code)."""

    path: str
    line: int
    column: int
    code: str
    message: str


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
