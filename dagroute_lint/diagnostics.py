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
# What a diagnostic is about, in the order the acceptance reports list them: what the deployment
# lacks first (a queue, an executor...), then what the DAG code gets wrong. A closed set, so that
# a consumer can switch on it; a plugin rule that says nothing is "other".
Kind = Literal[
    "queue", "executor", "pool", "provider", "package", "triggerer", "connection",
    "airflow-version", "module", "routing", "unmodelled", "parse", "credential", "suppression",
    "other",
]  # fmt: skip
# A task as the facts name it: (dag_id, task_id), each ``None`` where it cannot be known.
TaskKey = tuple[str | None, str | None]


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


@record
class KeywordFix:
    """How to fix a diagnostic by rewriting string-literal keywords of a call.

    The keyword at ``line``/``column``, written ``keyword="value"``, becomes
    ``new_keyword="new_value"``; each of ``drop``, ``(line, column, keyword, value)``, is a
    keyword of a call written so that is removed. Rules offer it only for keywords written on
    the task's own call (``Arguments.literal``); ``fix.py`` applies it to the tree, refusing
    when the keywords are no longer written so. Plain values, so that the result cache keeps
    them as they are.
    """

    line: int
    column: int
    keyword: str
    value: str
    new_keyword: str
    new_value: str
    drop: tuple[tuple[int, int, str, str], ...] = ()


# What rules can describe of a fix, for ``--fix``, ``--diff`` and the editors' code actions.
Fix = ImportFix | KeywordFix


@record
class Facts:
    """What a diagnostic is about, as values rather than words: what reads diagnostics (the
    acceptance reports, the outputs for tools) reads these, never the message, which may be
    reworded at any time.

    ``kind`` is what is lacking or wrong, and ``item`` which one (the queue, the provider's
    distribution, the pool, the argument...), ``None`` where the kind itself is the item (no
    triggerer runs). ``tasks`` are the tasks the report is about, each ``(dag_id, task_id)``:
    one for a report about one task, several when one cause breaks several tasks (a
    module-level import), none when it is about a file or a DAG; ``dag_id`` and ``task_id``
    name the one task, or the DAG a report about a DAG is about (``dag_id`` too when every task
    is of one DAG). ``workers`` are the workers concerned, each ``(name, runtime)``: those
    lacking the item; ``runtime`` a runtime concerned that is no worker's (the DAG processor's).
    """

    kind: Kind = "other"
    item: str | None = None
    dag_id: str | None = None
    task_id: str | None = None
    tasks: tuple[TaskKey, ...] = ()
    workers: tuple[tuple[str, str], ...] = ()
    runtime: str | None = None


@record
class Related:
    """Another place a diagnostic's subject is written: the layer of Airflow's precedence that
    set the routing value a diagnostic is about, when it is not the task's call itself
    (``queue 'imports' set here, in DAG 'lab' default_args``). 1-based line and column, as the
    diagnostic's own."""

    path: str
    line: int
    column: int
    message: str


# The facts of a diagnostic that gives none (a plugin rule's): shared, since records are frozen.
NO_FACTS = Facts()


@record(order=True)
class Diagnostic:
    """One reported problem; ordering is the output order (file, line, column, code).

    ``fix`` describes an automatic fix, when the rule knows a safe one (``--fix``, ``--diff``);
    ``severity`` is the reporting rule's, or the one its report gave this finding (DRL204's).
    ``cause`` names what several diagnostics of one rule share (DRL101: the unserved queue), so
    that ``--statistics`` and the summary count causes, not only reports. ``facts`` say what the
    message says, as values (see ``Facts``); ``related`` the places that set the value the
    diagnostic is about (see ``Related``), which the text output leaves out and the JSON, SARIF
    and language server outputs carry. Like the fix, severity and cause, facts and related places
    take no part in equality or ordering.
    """

    path: str
    line: int
    column: int
    code: str
    message: str
    fix: Fix | None = field(default=None, compare=False)
    severity: Severity = field(default="error", compare=False)
    cause: str | None = field(default=None, compare=False)
    facts: Facts = field(default=NO_FACTS, compare=False)
    related: tuple[Related, ...] = field(default=(), compare=False)


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
                facts=Facts("suppression", selector),
            )
