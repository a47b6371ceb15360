"""A JSON array of diagnostics, for scripts: one object per diagnostic, 1-based positions.

``end_line`` and ``end_column`` are ``null``: rules report where a problem starts only. ``fix``
is the automatic fix ``--fix`` would apply, or ``null``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic, ImportFix
from dagroute_lint.rules.registry import rule_name


def _fix(fix: ImportFix | None) -> dict[str, object] | None:
    if fix is None:
        return None
    return {
        "description": f"import {fix.new_name} from {fix.new_module} instead of "
        f"{fix.name} from {fix.module}",
        "module": fix.module,
        "name": fix.name,
        "new_module": fix.new_module,
        "new_name": fix.new_name,
    }


def format_json(diagnostics: Sequence[Diagnostic]) -> str:
    items = [
        {
            "file": d.path,
            "line": d.line,
            "column": d.column,
            "end_line": None,
            "end_column": None,
            "code": d.code,
            "name": rule_name(d.code),
            "severity": d.severity,
            "message": d.message,
            "fix": _fix(d.fix),
        }
        for d in diagnostics
    ]
    return json.dumps(items, indent=2) + "\n"
