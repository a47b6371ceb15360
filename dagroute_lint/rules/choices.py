"""How a diagnostic names a value that is one of several: which candidate fails, and of which."""

from __future__ import annotations

from collections.abc import Mapping

from dagroute_lint.resolve.tasks import ResolvedTask


def shown(value: object) -> str:
    return "None" if value is None else f"'{value}'" if isinstance(value, str) else str(value)


def one_of(task: ResolvedTask, name: str, chosen: Mapping[str, object]) -> str:
    """`` (one of 'manager', 'nfs')`` after the value of ``name`` when it was picked among the
    task's candidates; nothing for a value the task certainly holds."""
    if name not in chosen:
        return ""
    values = ", ".join(shown(value) for value in task.fields[name].candidates)
    return f" (one of {values})"


def when(task: ResolvedTask, chosen: Mapping[str, object], *named: str) -> str:
    """``, if its executor is 'CeleryExecutor' (one of ...)`` for the candidates a variant picks
    that the message does not name already."""
    others = [name for name in chosen if name not in named]
    if not others:
        return ""
    picked = " and ".join(
        f"its {name} is {shown(chosen[name])}{one_of(task, name, chosen)}" for name in others
    )
    return f", if {picked}"
