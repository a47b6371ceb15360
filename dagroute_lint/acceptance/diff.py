"""``inventory diff``: what a deployment change does to the DAGs' coverage.

The DAGs are linted once with each inventory. A diagnostic under the new inventory that the old
one did not have is coverage lost; the reverse is coverage gained. Diagnostics are matched on
file, position and rule first by their whole message, then by position and rule alone, so a
problem that stays but is worded differently (its "served:" list changed) is neither lost nor
gained.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dagroute_lint.acceptance.coverage import Checked, Gap, checked, gaps, per_task
from dagroute_lint.api import Report
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.routes import summary
from dagroute_lint.records import record


@record
class CoverageDiff:
    """Lost and gained coverage; ``unused_queues`` are worker queues no task uses that the change
    brings; ``checked`` says how much was checked under the new inventory. ``masked`` are problems
    gone only because the same task lost coverage first (a task no worker serves is no longer
    checked for the providers of a worker): not a gain."""

    lost: tuple[Gap, ...]
    gained: tuple[Gap, ...]
    masked: tuple[Gap, ...]
    unchanged: int
    unused_queues: tuple[str, ...]
    checked: Checked


def _key(diagnostic: Diagnostic) -> tuple[str, int, int, str]:
    return (diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.code)


def _only_in(
    first: Sequence[Diagnostic], second: Sequence[Diagnostic]
) -> tuple[list[Diagnostic], int]:
    """Diagnostics of ``first`` with no counterpart in ``second``, and how many had one."""
    exact = Counter(second)
    unmatched = []
    for diagnostic in first:
        if exact[diagnostic] > 0:
            exact[diagnostic] -= 1
        else:
            unmatched.append(diagnostic)
    loose = Counter(_key(d) for d in exact.elements())
    left = []
    for diagnostic in unmatched:
        if loose[_key(diagnostic)] > 0:
            loose[_key(diagnostic)] -= 1
        else:
            left.append(diagnostic)
    return left, len(first) - len(left)


def coverage_diff(old: Report, new: Report) -> CoverageDiff:
    # Per task: a report covering many tasks changes when one of them loses or gains.
    old_diagnostics, new_diagnostics = per_task(old.diagnostics), per_task(new.diagnostics)
    lost, unchanged = _only_in(new_diagnostics, old_diagnostics)
    gone, _ = _only_in(old_diagnostics, new_diagnostics)
    lost_gaps = gaps(lost)
    losing = {gap.who for gap in lost_gaps}
    gone_gaps = gaps(gone)
    old_unused = set(_unused(old))
    unused = tuple(q for q in _unused(new) if q not in old_unused)
    return CoverageDiff(
        lost=tuple(lost_gaps),
        gained=tuple(gap for gap in gone_gaps if gap.who not in losing),
        masked=tuple(gap for gap in gone_gaps if gap.who in losing),
        unchanged=unchanged,
        unused_queues=unused,
        checked=checked(new),
    )


def _unused(report: Report) -> list[str]:
    found = summary(report.repository).get("unused_worker_queues", [])
    assert isinstance(found, list)
    return [str(queue) for queue in found]
