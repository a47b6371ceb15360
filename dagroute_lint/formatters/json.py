"""A JSON array of diagnostics, for scripts: one object per diagnostic, 1-based positions."""

from __future__ import annotations

import json
from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.registry import rule_name


def format_json(diagnostics: Sequence[Diagnostic]) -> str:
    items = [
        {
            "file": d.path,
            "line": d.line,
            "column": d.column,
            "code": d.code,
            "name": rule_name(d.code),
            "message": d.message,
        }
        for d in diagnostics
    ]
    return json.dumps(items, indent=2) + "\n"
