"""The severity each format shows for a diagnostic: its rule's, looked up by code."""

from __future__ import annotations

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.base import Severity
from dagroute_lint.rules.registry import rule_by_code


def severity(diagnostic: Diagnostic) -> Severity:
    """``"error"`` for a task that will fail, ``"warning"`` where failure is possible; a code no
    rule declares (none should reach a format) counts as an error rather than being played down."""
    rule = rule_by_code(diagnostic.code)
    return rule.severity if rule is not None else "error"
