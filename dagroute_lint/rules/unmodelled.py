"""DRL106: places where tasks may be built that extraction could not follow.

A linter that skips what it cannot see gives false confidence, so every such place is named: a
call not followed inside a DAG or given a DAG, a loop of unknown length that builds tasks, a
bound on the walk reached, a DAG whose id cannot be known.
"""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.rules.base import Context, Rule


def check_unmodelled_tasks(context: Context) -> Iterator[Diagnostic]:
    for place in context.module.unmodelled:
        yield context.report(place.position, "DRL106", place.message)
    reported: set[int] = set()
    for task in context.tasks:
        dag = task.task.dag
        if task.dag_id is not None or dag is None or dag in reported:
            continue
        reported.add(dag)
        reason = dict(task.unresolved).get("dag_id", "not known statically")
        yield context.report(
            context.module.dags[dag].position,
            "DRL106",
            f"the id of this DAG cannot be known without running the file ({reason}); its "
            "tasks cannot be matched with what Airflow builds",
        )


UNMODELLED_TASKS = Rule(
    code="DRL106",
    name="unmodelled-tasks",
    summary="tasks may be built here that cannot be seen statically: the check is incomplete",
    boundary="coverage",
    check=check_unmodelled_tasks,
    needs_inventory=False,
    severity="warning",
)
