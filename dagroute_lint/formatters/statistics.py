"""``--statistics``: how many diagnostics each rule reported, in place of the diagnostics.

As ruff prints them: most frequent first, count, code and rule name in tab-separated columns,
or a JSON array of ``{code, name, count}`` with ``--format json``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.registry import rule_name

STATISTICS_FORMATS = ("text", "json")


def format_statistics(diagnostics: Sequence[Diagnostic], output_format: str) -> str:
    counts = sorted(
        Counter(d.code for d in diagnostics).items(), key=lambda item: (-item[1], item[0])
    )
    rows = [(code, rule_name(code) or "", count) for code, count in counts]
    if output_format == "json":
        items = [{"code": code, "name": name, "count": count} for code, name, count in rows]
        return json.dumps(items, indent=2) + "\n"
    count_width = max((len(str(count)) for _, _, count in rows), default=0)
    code_width = max((len(code) for code, _, _ in rows), default=0)
    return "".join(
        f"{count:>{count_width}}\t{code:<{code_width}}\t{name}\n" for code, name, count in rows
    )
