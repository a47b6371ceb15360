"""flake8-style lines, ``path:line:col: CODE message``, which editors and CI matchers parse."""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.escape import printable


def format_text(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(
        f"{printable(d.path)}:{d.line}:{d.column}: {d.code} {printable(d.message)}\n"
        for d in diagnostics
    )
