"""flake8-style lines, ``path:line:col: CODE message``, which editors and CI matchers parse."""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic


def one_line(text: str) -> str:
    """A hostile file name or message must not forge extra diagnostic lines."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def format_text(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(
        f"{one_line(d.path)}:{d.line}:{d.column}: {d.code} {one_line(d.message)}\n"
        for d in diagnostics
    )
