"""DRL106: places where tasks may be built that extraction could not follow.

A linter that skips what it cannot see gives false confidence, so every such place is named: a
call not followed inside a DAG or given a DAG, a loop of unknown length that builds tasks, a
bound on the walk reached, a DAG whose id cannot be known, a file the DAG processor imports in
which no DAG is found.
"""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.coverage import unmodelled_places
from dagroute_lint.rules.base import Context, Rule


def check_unmodelled_tasks(context: Context) -> Iterator[Diagnostic]:
    places = unmodelled_places(context.module, context.tasks, context.file.no_dag)
    for position, message, item in places:
        yield context.report(position, message, kind="unmodelled", item=item)


UNMODELLED_TASKS = Rule(
    code="DRL106",
    name="unmodelled-tasks",
    summary="tasks may be built here that cannot be seen statically: the check is incomplete",
    boundary="coverage",
    check=check_unmodelled_tasks,
    severity="warning",
)
