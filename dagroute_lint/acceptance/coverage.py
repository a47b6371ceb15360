"""What the DAGs need that a deployment lacks, read from the facts of the rules' diagnostics.

The rules already decide, soundly, whether a task is served, and say what each report is about
(``Diagnostic.facts``); this module only sorts the reports of ``api.report`` by kind of coverage
(queue, executor, pool, provider, package, triggerer...) and the item lacking, one row per task
they break, so that a platform engineer reads one table instead of a lint log. Messages are
never read: a reworded message changes nothing here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import get_args

from dagroute_lint.api import Report
from dagroute_lint.diagnostics import Diagnostic, Kind, TaskKey
from dagroute_lint.records import record

# The order of the rows: the kinds as ``Kind`` declares them.
KIND_ORDER: tuple[Kind, ...] = get_args(Kind)
# Kinds where what is lacking is the kind itself, whatever the facts' item names (the field whose
# value is unknown, say): the table says what would make the task covered.
_ITEMLESS: dict[Kind, str] = {
    "triggerer": "a running triggerer",
    "routing": "a value known statically",
    "unmodelled": "tasks the linter can see",
}


@record(order=True)
class Gap:
    """One diagnostic for one task it is about, sorted by what it is about: ``item`` lacks for
    ``who`` (``dag.task``, or the file for a report about no task)."""

    kind: Kind
    item: str
    code: str
    who: str
    diagnostic: Diagnostic

    @property
    def where(self) -> str:
        d = self.diagnostic
        return f"{d.path}:{d.line}:{d.column}"

    @property
    def key(self) -> tuple[object, ...]:
        """The problem, whatever the inventory: where, which rule, what about and for whom; not
        the message or the workers concerned, which change with the inventory."""
        d = self.diagnostic
        return (d.path, d.line, d.column, d.code, d.facts.kind, d.facts.item, self.who)


def task_name(task: TaskKey) -> str:
    """``dag.task``, as the acceptance reports name a task (an id not known shown as such)."""
    dag_id, task_id = task
    dag = dag_id if dag_id is not None else "<unknown dag>"
    return f"{dag}.{task_id if task_id is not None else '<unknown id>'}"


def per_task(diagnostic: Diagnostic) -> Iterator[Gap]:
    """The diagnostic as one gap for each task it is about (one report may cover several: a
    module-level import breaks every task of its file), or one for its file."""
    facts = diagnostic.facts
    item = _ITEMLESS.get(facts.kind) or facts.item or ""
    whom = [task_name(task) for task in facts.tasks] or [diagnostic.path]
    for who in whom:
        yield Gap(facts.kind, item, diagnostic.code, who, diagnostic)


def gaps(diagnostics: Sequence[Diagnostic]) -> list[Gap]:
    order = {kind: rank for rank, kind in enumerate(KIND_ORDER)}
    found = (gap for diagnostic in diagnostics for gap in per_task(diagnostic))
    return sorted(found, key=lambda g: (order[g.kind], g))


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
