"""Output formats: for diagnostics, each turns a sorted list into text for one audience; for
``routes``, each turns the resolved tasks (and the inventory) into a table or a map."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.dot import format_routes_dot
from dagroute_lint.formatters.github import format_github
from dagroute_lint.formatters.gitlab import format_gitlab
from dagroute_lint.formatters.html import format_routes_html
from dagroute_lint.formatters.json import format_json
from dagroute_lint.formatters.mermaid import format_routes_mermaid
from dagroute_lint.formatters.routes import (
    format_routes_csv,
    format_routes_json,
    format_routes_table,
)
from dagroute_lint.formatters.sarif import format_sarif
from dagroute_lint.formatters.svg import format_routes_svg
from dagroute_lint.formatters.text import format_text
from dagroute_lint.resolve.repository import Repository

Formatter = Callable[[Sequence[Diagnostic]], str]
RouteFormatter = Callable[[Repository], str]

FORMATTERS: dict[str, Formatter] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
    "gitlab": format_gitlab,
    "sarif": format_sarif,
}

# ``routes``: the table (for people), JSON (the contract), CSV, and the routing map drawn.
ROUTE_FORMATS: dict[str, RouteFormatter] = {
    "table": format_routes_table,
    "json": format_routes_json,
    "csv": format_routes_csv,
    "dot": format_routes_dot,
    "mermaid": format_routes_mermaid,
    "svg": format_routes_svg,
    "html": format_routes_html,
}
