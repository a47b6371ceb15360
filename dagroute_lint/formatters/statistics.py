"""``--statistics``: how many diagnostics each rule reported, in place of the diagnostics.

As ruff prints them: most frequent first, count, code and rule name in tab-separated columns,
or a JSON array of ``{code, name, count}`` with ``--format json``. A rule whose reports share
causes (DRL101: one per task, many tasks per unserved queue) is followed by one indented row
per cause, most frequent first, when two reports share one (JSON: ``causes``, a list of
``{cause, count}``), so that twenty tasks on one unserved queue read as one problem.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.registry import rule_name

STATISTICS_FORMATS = ("text", "json")


def causes_of(diagnostics: Sequence[Diagnostic], code: str) -> list[tuple[str, int]]:
    """The causes the reports of ``code`` name, with how many reports each, most first; none
    when no two reports share one (then the causes say nothing the count does not)."""
    counts = Counter(d.cause for d in diagnostics if d.code == code and d.cause is not None)
    if all(n == 1 for n in counts.values()):
        return []
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def format_statistics(diagnostics: Sequence[Diagnostic], output_format: str) -> str:
    counts = sorted(
        Counter(d.code for d in diagnostics).items(), key=lambda item: (-item[1], item[0])
    )
    rows = [(code, rule_name(code) or "", count) for code, count in counts]
    if output_format == "json":
        items: list[dict[str, object]] = []
        for code, name, count in rows:
            item: dict[str, object] = {"code": code, "name": name, "count": count}
            causes = causes_of(diagnostics, code)
            if causes:
                item["causes"] = [{"cause": cause, "count": n} for cause, n in causes]
            items.append(item)
        return json.dumps(items, indent=2) + "\n"
    count_width = max((len(str(count)) for _, _, count in rows), default=0)
    code_width = max((len(code) for code, _, _ in rows), default=0)
    lines = []
    for code, name, count in rows:
        lines.append(f"{count:>{count_width}}\t{code:<{code_width}}\t{name}\n")
        lines.extend(
            f"{n:>{count_width}}\t{'':<{code_width}}\t  {cause}\n"
            for cause, n in causes_of(diagnostics, code)
        )
    return "".join(lines)
