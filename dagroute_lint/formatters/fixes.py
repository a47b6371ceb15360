"""``--show-fixes``: the fixes ``--fix`` would apply (or applied), per file and code, as ruff lists
them: ``Would fix 3 problems with `--fix`:``, then each file and under it each code with its
count (``2 TIMES DRL204 (import-removed-in-airflow)``, ``TIMES`` the multiplication sign, as
ruff's).

Only the files whose fixes apply to their content as it is are counted: the caller passes
those, so the listing never promises a fix that ``--fix`` would then refuse.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.summary import count
from dagroute_lint.rules.registry import rule_name

TIMES = "\N{MULTIPLICATION SIGN}"


def fix_listing(diagnostics: Sequence[Diagnostic], files: Collection[str], applied: bool) -> str:
    """The fixable diagnostics of ``files`` grouped by file and code; ``applied``: they were
    fixed (``--fix``), rather than would be."""
    per_file: dict[str, Counter[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic.fix is not None and diagnostic.path in files:
            per_file.setdefault(diagnostic.path, Counter())[diagnostic.code] += 1
    total = sum(sum(codes.values()) for codes in per_file.values())
    if not total:
        return "No problems fixed.\n" if applied else "No problems would be fixed with `--fix`.\n"
    heading = "Fixed" if applied else "Would fix"
    lines = [f"{heading} {count(total, 'problem')}{'' if applied else ' with `--fix`'}:"]
    for path, codes in sorted(per_file.items()):
        lines.append(f"  {printable(path)}:")
        for code, number in sorted(codes.items()):
            name = rule_name(code)
            lines.append(f"    {number} {TIMES} {code}" + (f" ({name})" if name else ""))
    return "".join(f"{line}\n" for line in lines)
