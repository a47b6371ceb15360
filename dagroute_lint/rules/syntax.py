"""DRL001: files that cannot be read, decoded or parsed are reported, never crashed on."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.base import Context, Rule


def check_syntax(context: Context) -> Iterator[Diagnostic]:
    problem = context.module.syntax_error
    if problem is None:
        return
    consequence = (
        "skipped, its tasks are not checked"
        if problem.skipped
        else "Airflow records an import error and loads no DAG from this file"
    )
    yield context.report(problem.position, f"{problem.message}; {consequence}", kind="parse")


SYNTAX_ERROR = Rule(
    code="DRL001",
    name="syntax-error",
    summary="a file that cannot be parsed or decoded",
    boundary="parse",
    check=check_syntax,
)
