"""Output formats for diagnostics; each turns a sorted list into text for one audience."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.github import format_github
from dagroute_lint.formatters.gitlab import format_gitlab
from dagroute_lint.formatters.json import format_json
from dagroute_lint.formatters.sarif import format_sarif
from dagroute_lint.formatters.text import format_text

Formatter = Callable[[Sequence[Diagnostic]], str]

FORMATTERS: dict[str, Formatter] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
    "gitlab": format_gitlab,
    "sarif": format_sarif,
}
