"""Diagnostics, and the filters between rules and output: selection and ``# noqa``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import field
from typing import Literal

from dagroute_lint.model import Module
from dagroute_lint.records import record

# What code-scanning tools show: "error" for a task that will fail, "warning" where the failure is
# possible but unproven.
Severity = Literal["error", "warning"]


@record
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


@record(order=True)
class Diagnostic:
    """One reported problem; ordering is the output order (file, line, column, code).

    ``fix`` describes an automatic fix, when the rule knows a safe one (``--fix``, ``--diff``);
    ``severity`` is the reporting rule's. ``cause`` names what several diagnostics of one rule
    share (DRL101: the unserved queue), so that ``--statistics`` and the summary count causes,
    not only reports. ``tasks`` are the labels of the tasks one report covers (a module-level
    import breaking many tasks, DRL202/DRL203), for the reports that count per task.
    """

    path: str
    line: int
    column: int
    code: str
    message: str
    fix: ImportFix | None = field(default=None, compare=False)
    severity: Severity = field(default="error", compare=False)
    cause: str | None = field(default=None, compare=False)
    tasks: tuple[str, ...] = field(default=(), compare=False)


UNUSED_NOQA = "DRL901"


def _names(codes: frozenset[str] | None, code: str) -> frozenset[str | None]:
    """The selectors of a comment that name ``code`` (``{None}`` for a bare comment)."""
    if codes is None:
        return frozenset({None})
    return frozenset(selector for selector in codes if code.startswith(selector))


def _suppressors(diagnostic: Diagnostic, module: Module) -> set[tuple[int, str | None]]:
    """Every ``(comment line, selector)`` that silences ``diagnostic``: a ``# noqa`` on its
    line, or a file-level ``# dagroute-lint: noqa`` naming its code, a prefix of it, or none."""
    found = {
        (line, selector)
        for line, codes in module.file_noqa.items()
        for selector in _names(codes, diagnostic.code)
    }
    if diagnostic.line in module.noqa:
        codes = module.noqa[diagnostic.line]
        found |= {(diagnostic.line, selector) for selector in _names(codes, diagnostic.code)}
    return found


def is_suppressed(diagnostic: Diagnostic, module: Module) -> bool:
    return bool(_suppressors(diagnostic, module))


def unsuppressed(
    diagnostics: Iterable[Diagnostic],
    module: Module,
    ran: frozenset[str] = frozenset(),
    report_unused: bool = False,
) -> list[Diagnostic]:
    """What ``# noqa`` comments leave of ``diagnostics``, plus, with ``report_unused``, one
    DRL901 diagnostic for each code a comment names that silenced nothing.

    Only codes of rules that ran on the file (``ran``) can be unused: a code of another tool, or
    of a rule this run left out, may well be needed elsewhere. Bare comments are never reported,
    as they may serve other linters.
    """
    kept: list[Diagnostic] = []
    used: set[tuple[int, str | None]] = set()
    for diagnostic in diagnostics:
        suppressors = _suppressors(diagnostic, module)
        used |= suppressors
        if not suppressors:
            kept.append(diagnostic)
    if report_unused:
        unused = [d for d in _unused(module, ran, used) if not is_suppressed(d, module)]
        kept.extend(unused)
    return kept


def _unused(
    module: Module, ran: frozenset[str], used: set[tuple[int, str | None]]
) -> Iterator[Diagnostic]:
    comments = [
        (line, codes, "dagroute-lint: noqa") for line, codes in module.file_noqa.items()
    ] + [(line, codes, "noqa") for line, codes in module.noqa.items()]
    for line, codes, marker in sorted(comments, key=lambda comment: comment[0]):
        for selector in sorted(codes or ()):
            if (line, selector) in used or not any(code.startswith(selector) for code in ran):
                continue
            yield Diagnostic(
                module.path,
                line,
                1,
                UNUSED_NOQA,
                f"unused `# {marker}` code {selector}: no {selector} diagnostic is reported "
                + ("in this file" if marker != "noqa" else "on this line"),
                severity="warning",
            )
