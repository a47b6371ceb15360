"""What the DAGs need that a deployment lacks, read from the rules' own diagnostics.

The rules already decide, soundly, whether a task is served; this module only sorts what they
report by the kind of coverage it is about (queue, executor, pool, provider, package, triggerer)
and the item lacking, so that a platform engineer reads one table (of ``api.report``) instead
of a lint log.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from dagroute_lint.api import Report
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.records import record

# The coverage each rule is about, and how its message names the item lacking. A rule not listed
# (a plugin's, say) still counts, as kind "other".
_QUOTED_QUEUE = r"queue '(?P<item>[^']*)'"
_NEEDS = r"needs (?P<item>[^\s;,()]+)"
KINDS: dict[str, tuple[str, str | None]] = {
    "DRL101": ("queue", _QUOTED_QUEUE),
    "DRL102": ("queue", _QUOTED_QUEUE),
    "DRL103": ("executor", r"executor '(?P<item>[^']*)'"),
    "DRL104": ("routing", None),
    "DRL105": ("routing", None),
    "DRL106": ("unmodelled", None),
    "DRL201": ("provider", _NEEDS),
    "DRL202": ("provider", _NEEDS),
    "DRL203": ("package", _NEEDS),
    "DRL204": ("airflow version", r"'(?P<item>[^']*)'"),
    "DRL205": ("package", _NEEDS),
    "DRL206": ("module", r"'(?P<item>[^']*)'"),
    "DRL301": ("pool", r"pool '(?P<item>[^']*)'"),
    "DRL302": ("pool", r"pool '(?P<item>[^']*)'"),
    "DRL303": ("triggerer", None),
    "DRL304": ("triggerer", None),
    "DRL402": ("connection", r"='(?P<item>[^']*)'"),
    "DRL501": ("executor", None),
}
KIND_ORDER = (
    "queue", "executor", "pool", "provider", "package", "triggerer", "connection",
    "airflow version", "module", "routing", "unmodelled", "other",
)  # fmt: skip
# Kinds whose rules name no item: what is lacking is the kind itself.
_ITEMLESS = {
    "triggerer": "a running triggerer",
    "routing": "a value known statically",
    "unmodelled": "tasks the evaluator follows",
}
_TASK = re.compile(r"task '(?P<task>[^']*)' in dag '(?P<dag>[^']*)'")
_PATTERNS = {code: re.compile(pattern) for code, (_, pattern) in KINDS.items() if pattern}


@record(order=True)
class Gap:
    """One diagnostic, sorted by what it is about: ``item`` lacks for ``who``."""

    kind: str
    item: str
    code: str
    who: str
    diagnostic: Diagnostic

    @property
    def where(self) -> str:
        d = self.diagnostic
        return f"{d.path}:{d.line}:{d.column}"


def gap(diagnostic: Diagnostic) -> Gap:
    kind, _ = KINDS.get(diagnostic.code, ("other", None))
    pattern = _PATTERNS.get(diagnostic.code)
    found = pattern.search(diagnostic.message) if pattern is not None else None
    item = found.group("item") if found is not None else _ITEMLESS.get(kind, "")
    task = _TASK.search(diagnostic.message)
    who = f"{task.group('dag')}.{task.group('task')}" if task is not None else diagnostic.path
    return Gap(kind, item, diagnostic.code, who, diagnostic)


def per_task(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Each report that covers several tasks (``Diagnostic.tasks``) as one per task, worded
    without what may change between inventories (the workers lacking, the other tasks)."""
    found: list[Diagnostic] = []
    for diagnostic in diagnostics:
        if not diagnostic.tasks:
            found.append(diagnostic)
            continue
        cause = diagnostic.message.partition(", which ")[0]
        found.extend(
            replace(diagnostic, message=f"{label}: {cause}", tasks=()) for label in diagnostic.tasks
        )
    return found


def gaps(diagnostics: Sequence[Diagnostic]) -> list[Gap]:
    order = {kind: rank for rank, kind in enumerate(KIND_ORDER)}
    return sorted((gap(d) for d in per_task(diagnostics)), key=lambda g: (order.get(g.kind, 99), g))


@record
class Checked:
    """How much a run checked, for the line every acceptance report ends with: tasks seen, tasks
    whose routing is known only when the file runs, places tasks may be missing (DRL106)."""

    tasks: int
    unresolved: int
    unmodelled: int
    files: int


def checked(report: Report) -> Checked:
    return Checked(
        tasks=len(report.tasks),
        unresolved=sum(1 for task in report.tasks if task.unresolved),
        # Counted by the repository, so that ignoring DRL106 never hides what was not seen.
        unmodelled=report.repository.coverage.unseen,
        files=report.files,
    )
