"""Output formats: for diagnostics, each turns a sorted list into text for one audience; for
``routes``, each turns the resolved tasks (and the inventory) into a table or a map.

A format's module is imported only when it is asked for: one file linted as pre-commit runs it
prints text, and the SARIF and drawing formats import modules (distribution metadata, XML
escaping and through it ``urllib.request``) that would cost that run more than its rules.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from dagroute_lint.diagnostics import Diagnostic
    from dagroute_lint.resolve.repository import Repository

Formatter = Callable[["Sequence[Diagnostic]"], str]
RouteFormatter = Callable[["Repository"], str]

# Where each format is written (module of this package, function), by the name users give.
_FORMATS: dict[str, tuple[str, str]] = {
    "text": ("text", "format_text"),
    "json": ("json", "format_json"),
    "github": ("github", "format_github"),
    "gitlab": ("gitlab", "format_gitlab"),
    "sarif": ("sarif", "format_sarif"),
    "junit": ("junit", "format_junit"),
}

# ``routes``: the table (for people), JSON (the contract), CSV, and the routing map drawn.
_ROUTE_FORMATS: dict[str, tuple[str, str]] = {
    "table": ("routes", "format_routes_table"),
    "json": ("routes", "format_routes_json"),
    "csv": ("routes", "format_routes_csv"),
    "dot": ("dot", "format_routes_dot"),
    "mermaid": ("mermaid", "format_routes_mermaid"),
    "svg": ("svg", "format_routes_svg"),
    "html": ("html", "format_routes_html"),
}

FORMAT_NAMES = tuple(sorted(_FORMATS))
ROUTE_FORMAT_NAMES = tuple(sorted(_ROUTE_FORMATS))


def formatter(name: str) -> Formatter:
    """The diagnostics format ``name`` (one of ``FORMAT_NAMES``)."""
    return cast(Formatter, _load(_FORMATS[name]))


def route_formatter(name: str) -> RouteFormatter:
    """The ``routes`` format ``name`` (one of ``ROUTE_FORMAT_NAMES``)."""
    return cast(RouteFormatter, _load(_ROUTE_FORMATS[name]))


def _load(where: tuple[str, str]) -> object:
    module, function = where
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)
