"""Keyword settings as the file writes them, for rules about argument values.

``default_args`` reach every task of their DAG or TaskGroup; a finding in them is reported once,
where they are written, and named after the level rather than after one task.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dagroute_lint.records import record
from dagroute_lint.resolve.tasks import ResolvedTask, Setting


@record
class Written:
    """A setting and who it belongs to in messages: ``task 'x' in dag 'y'`` or its level; for
    the facts, the task whose own argument it is (``None`` for ``default_args``, which may be
    written once for the tasks of several DAGs)."""

    setting: Setting
    owner: str
    task: ResolvedTask | None


def written_settings(tasks: Iterable[ResolvedTask]) -> Iterator[Written]:
    seen: set[tuple[object, str, str]] = set()
    for task in tasks:
        for setting in task.settings:
            if "default_args" not in setting.origin:
                yield Written(setting, task.label, task)
                continue
            key = (setting.position, setting.name, repr(setting.value))
            if key not in seen:
                seen.add(key)
                yield Written(setting, setting.origin, None)
