"""GitHub Actions workflow commands (``::error`` or ``::warning``, as the rule's severity), so
diagnostics appear as annotations on the pull request."""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.escape import printable


def _escape_data(text: str) -> str:
    """GitHub's own escapes for ``%`` and line breaks (the runner decodes them, so a path comes
    back exact); any other control character is shown escaped, never passed to the log."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    return "".join(
        f"::{d.severity} title={_escape_property(d.code)},file={_escape_property(d.path)},"
        f"line={d.line},col={d.column}::{_escape_data(f'{d.code} {d.message}')}\n"
        for d in diagnostics
    )
