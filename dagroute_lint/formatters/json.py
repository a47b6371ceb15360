"""A JSON array of diagnostics, for scripts: one object per diagnostic, 1-based positions.

``end_line`` and ``end_column`` are ``null``: rules report where a problem starts only. ``fix``
is the automatic fix ``--fix`` would apply (``kind``: an ``import`` rewritten, or a ``keyword``
of the task's call), or ``null``. ``facts`` say what the message says, as
values (``facts_object``): scripts read those, since messages may be reworded. ``related`` lists
the other places the diagnostic's subject is written (``related_objects``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from dagroute_lint.diagnostics import Diagnostic, Facts, Fix, KeywordFix, Related
from dagroute_lint.rules.registry import rule_name


def _fix(fix: Fix | None) -> dict[str, object] | None:
    if fix is None:
        return None
    if isinstance(fix, KeywordFix):
        return {
            "kind": "keyword",
            "description": keyword_fix_description(fix),
            "line": fix.line,
            "column": fix.column,
            "keyword": fix.keyword,
            "value": fix.value,
            "new_keyword": fix.new_keyword,
            "new_value": fix.new_value,
            "drop": [
                {"line": line, "column": column, "keyword": keyword, "value": value}
                for line, column, keyword, value in fix.drop
            ],
        }
    return {
        "kind": "import",
        "description": f"import {fix.new_name} from {fix.new_module} instead of "
        f"{fix.name} from {fix.module}",
        "module": fix.module,
        "name": fix.name,
        "new_module": fix.new_module,
        "new_name": fix.new_name,
    }


def keyword_fix_description(fix: KeywordFix) -> str:
    """``executor="KubernetesExecutor" instead of executor="CeleryKubernetesExecutor", without
    queue="kubernetes"``."""
    text = f'{fix.new_keyword}="{fix.new_value}" instead of {fix.keyword}="{fix.value}"'
    dropped = ", ".join(f'{keyword}="{value}"' for _, _, keyword, value in fix.drop)
    return f"{text}, without {dropped}" if dropped else text


def facts_object(facts: Facts) -> dict[str, object]:
    """A diagnostic's facts as one JSON object, the same in every output that carries them
    (JSON, SARIF's ``properties``, the language server's ``data``): ``kind``, ``item``,
    ``dag_id``, ``task_id``, ``tasks`` (``[{"dag_id", "task_id"}]``), ``workers``
    (``[{"worker", "runtime"}]``) and ``runtime``; a value not known or not concerned is
    ``null``, a list with nothing in it empty."""
    return {
        "kind": facts.kind,
        "item": facts.item,
        "dag_id": facts.dag_id,
        "task_id": facts.task_id,
        "tasks": [{"dag_id": dag_id, "task_id": task_id} for dag_id, task_id in facts.tasks],
        "workers": [{"worker": name, "runtime": runtime} for name, runtime in facts.workers],
        "runtime": facts.runtime,
    }


def related_objects(related: tuple[Related, ...]) -> list[dict[str, object]]:
    """Where the level of Airflow's precedence that set the routing value a diagnostic is about
    is written, when not on the task's call: ``file``, 1-based ``line`` and ``column``, and a
    ``message`` (``queue 'imports' set here, in DAG 'lab' default_args``)."""
    return [
        {"file": place.path, "line": place.line, "column": place.column, "message": place.message}
        for place in related
    ]


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
            "facts": facts_object(d.facts),
            "related": related_objects(d.related),
        }
        for d in diagnostics
    ]
    return json.dumps(items, indent=2) + "\n"
