"""flake8-style lines, ``path:line:col: CODE [severity] message``, for people, editors and CI.

With colour (a terminal), the path is bold and the code red for an error, yellow for a warning,
as ruff colours its own; the text is the same either way. With ``mark_fixes`` (``--show-fixes``)
a problem ``--fix`` can fix has ``[*]`` after its code, as ruff marks it.
"""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.summary import paint

_CODE_STYLE = {"error": "bold red", "warning": "bold yellow"}


def format_text(
    diagnostics: Sequence[Diagnostic], colour: bool = False, mark_fixes: bool = False
) -> str:
    lines = []
    for d in diagnostics:
        level = d.severity
        where = paint(printable(d.path), "bold", colour)
        code = paint(d.code, _CODE_STYLE[level], colour)
        mark = " [*]" if mark_fixes and d.fix is not None else ""
        lines.append(
            f"{where}:{d.line}:{d.column}: {code}{mark} [{level}] {printable(d.message)}\n"
        )
    return "".join(lines)
