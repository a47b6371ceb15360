"""The acceptance reports as text for people and JSON for pipelines."""

from __future__ import annotations

import json
from collections.abc import Sequence

from dagroute_lint.acceptance.coverage import Checked, Gap
from dagroute_lint.acceptance.diff import CoverageDiff
from dagroute_lint.deployment.diff import Change
from dagroute_lint.formatters.escape import printable
from dagroute_lint.rules.dispatch import UNRESOLVED_ROUTING
from dagroute_lint.rules.unmodelled import UNMODELLED_TASKS

REPORT_VERSION = 1
MAX_NAMED = 3


def _gap_record(gap: Gap) -> dict[str, object]:
    d = gap.diagnostic
    return {
        "kind": gap.kind,
        "item": gap.item,
        "code": gap.code,
        "task": gap.who,
        "file": d.path,
        "line": d.line,
        "column": d.column,
        "message": d.message,
    }


def _gap_line(gap: Gap) -> str:
    d = gap.diagnostic
    lacking = f"{gap.kind} {gap.item}".strip()
    # A report covering several tasks is listed once for each: say which one this line is.
    whose = f"{gap.who}: " if len(d.facts.tasks) > 1 else ""
    return printable(f"  {gap.where}: {gap.code} [{lacking}] {whose}{d.message}")


def _checked(checked: Checked) -> str:
    text = f"checked {checked.tasks} tasks in {checked.files} files"
    if checked.unresolved:
        text += (
            f"; {checked.unresolved} of them take a routing value known only when the file runs, "
            f"so their coverage is unproven ({UNRESOLVED_ROUTING.code})"
        )
    if checked.unmodelled:
        text += (
            f"; in {checked.unmodelled} places tasks may exist that were not seen, so not "
            f"checked ({UNMODELLED_TASKS.code})"
        )
    return text


def diff_text(old: str, new: str, changes: Sequence[Change], diff: CoverageDiff) -> str:
    lines = [f"inventory changes, {old} -> {new}:"]
    lines += [
        printable(
            f"  {change.what}: "
            + ", ".join(
                [*(f"-{item}" for item in change.removed), *(f"+{item}" for item in change.added)]
            )
        )
        for change in changes
    ] or ["  none that the checks read"]
    lines.append(f"coverage lost ({len(diff.lost)}): problems {new} brings")
    lines += [_gap_line(gap) for gap in diff.lost] or ["  none"]
    lines.append(f"coverage gained ({len(diff.gained)}): problems {new} removes")
    lines += [_gap_line(gap) for gap in diff.gained] or ["  none"]
    if diff.masked:
        lines.append(
            f"no longer checked ({len(diff.masked)}): problems gone only because their task "
            "lost coverage above"
        )
        lines += [_gap_line(gap) for gap in diff.masked]
    if diff.unused_queues:
        lines.append(
            "worker queues that no task uses, new with this change: "
            + ", ".join(diff.unused_queues)
        )
    lines.append(f"{diff.unchanged} problems stay as they were; " + _checked(diff.checked))
    return "\n".join(lines) + "\n"


def diff_json(old: str, new: str, changes: Sequence[Change], diff: CoverageDiff) -> str:
    document = {
        "version": REPORT_VERSION,
        "old": old,
        "new": new,
        "changes": [
            {"what": c.what, "removed": list(c.removed), "added": list(c.added)} for c in changes
        ],
        "lost": [_gap_record(gap) for gap in diff.lost],
        "gained": [_gap_record(gap) for gap in diff.gained],
        "masked": [_gap_record(gap) for gap in diff.masked],
        "unused_queues": list(diff.unused_queues),
        "summary": {
            "lost": len(diff.lost),
            "gained": len(diff.gained),
            "unchanged": diff.unchanged,
            "tasks": diff.checked.tasks,
            "unresolved_tasks": diff.checked.unresolved,
            "unmodelled_places": diff.checked.unmodelled,
            "files": diff.checked.files,
        },
    }
    return json.dumps(document, indent=2) + "\n"


def needs_table(gaps: Sequence[Gap], checked: Checked) -> str:
    """One row per thing lacking: kind, item, rules, and the tasks that need it."""
    rows: dict[tuple[str, str], list[Gap]] = {}
    for gap in gaps:
        rows.setdefault((gap.kind, gap.item), []).append(gap)
    table = [("lacks", "item", "rules", "needed by")]
    for (kind, item), found in rows.items():
        who = list(dict.fromkeys(gap.who for gap in found))
        named = ", ".join(who[:MAX_NAMED]) + (
            f" and {len(who) - MAX_NAMED} more" if len(who) > MAX_NAMED else ""
        )
        codes = ",".join(sorted({gap.code for gap in found}))
        table.append((kind, item or "-", codes, f"{len(who)}: {named}"))
    widths = [max(len(row[column]) for row in table) for column in range(3)]
    lines = [
        printable(
            "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths)) + "  " + row[3]
        )
        for row in table
    ]
    if len(table) == 1:
        lines = ["nothing lacking: every task's routing, providers and packages are covered"]
    lines.append(_checked(checked))
    return "\n".join(lines) + "\n"
