"""``inventory diff``: what a deployment change does to the DAGs' coverage.

The DAGs are linted once with each inventory. A problem under the new inventory that the old one
did not have is coverage lost; the reverse is coverage gained. Problems are compared per task
(``coverage.per_task``: a report covering many tasks changes when one of them loses or gains),
by what they are about (``Gap.key``: file, position, rule, the facts' kind and item, the task),
never by their message, so a problem that stays but is worded differently (its "served:" list
changed) is neither lost nor gained.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dagroute_lint.acceptance.coverage import Checked, Gap, checked, gaps
from dagroute_lint.api import Report
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


def _only_in(first: Sequence[Gap], second: Sequence[Gap]) -> tuple[list[Gap], int]:
    """Gaps of ``first`` with no counterpart in ``second``, and how many had one."""
    left = Counter(gap.key for gap in second)
    unmatched = []
    for gap in first:
        if left[gap.key] > 0:
            left[gap.key] -= 1
        else:
            unmatched.append(gap)
    return unmatched, len(first) - len(unmatched)


def coverage_diff(old: Report, new: Report) -> CoverageDiff:
    old_gaps, new_gaps = gaps(old.diagnostics), gaps(new.diagnostics)
    lost, unchanged = _only_in(new_gaps, old_gaps)
    gone, _ = _only_in(old_gaps, new_gaps)
    losing = {gap.who for gap in lost}
    old_unused = set(_unused(old))
    unused = tuple(q for q in _unused(new) if q not in old_unused)
    return CoverageDiff(
        lost=tuple(lost),
        gained=tuple(gap for gap in gone if gap.who not in losing),
        masked=tuple(gap for gap in gone if gap.who in losing),
        unchanged=unchanged,
        unused_queues=unused,
        checked=checked(new),
    )


def _unused(report: Report) -> list[str]:
    found = summary(report.repository).get("unused_worker_queues", [])
    assert isinstance(found, list)
    return [str(queue) for queue in found]
