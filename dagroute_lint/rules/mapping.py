"""DRL104: routing given where dynamic task mapping cannot take it (airflow-semantics §1.4-1.5)."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.tasks import ROUTING_FIELDS
from dagroute_lint.rules.base import Context, Rule

# ``partial()`` fills every OPERATOR_DEFAULTS key, so expanding one is a TypeError at parse.
_UNMAPPABLE = ("queue", "pool_slots", "executor_config")
# Not in OPERATOR_DEFAULTS: accepted, but the scheduler routes on the partial value only.
_IGNORED_WHEN_MAPPED = ("pool", "executor")
_ROUTING = (*ROUTING_FIELDS, "executor_config")


def check_unmappable_routing(context: Context) -> Iterator[Diagnostic]:
    for task in context.tasks:
        model = task.task
        for key in model.group_expanded:
            yield context.report(
                model.position,
                f"{task.label} gets '{key}' from an argument its mapped task group expands: "
                f"Airflow rejects it when the file is parsed (TypeError: '{key}' expects a "
                f"{'number' if key == 'pool_slots' else 'string'}, got a MappedArgument); "
                "bind it with the group's .partial() instead",
                kind="routing",
                item=key,
                task=task,
            )
        if model.taskflow is None:
            for key in model.expand_keys:
                if key in _UNMAPPABLE:
                    yield context.report(
                        model.position,
                        f"{task.label} expands '{key}', which Airflow cannot map: the DAG fails "
                        "to import (TypeError: unmappable or already specified argument); set it "
                        "in .partial() instead",
                        kind="routing",
                        item=key,
                        task=task,
                    )
                elif key in _IGNORED_WHEN_MAPPED:
                    yield context.report(
                        model.position,
                        f"{task.label} expands '{key}', but routing never varies per map index: "
                        f"the scheduler uses the .partial() value and ignores the expanded ones",
                        kind="routing",
                        item=key,
                        task=task,
                    )
            continue
        for key in model.partial_keys:
            if key in _ROUTING:
                yield context.report(
                    model.position,
                    f"{task.label} passes '{key}' to a TaskFlow .partial(), which binds a "
                    f"function argument, not routing; use .override({key}=...) to route it",
                    kind="routing",
                    item=key,
                    task=task,
                )


UNMAPPABLE_ROUTING = Rule(
    code="DRL104",
    name="unmappable-routing",
    summary="routing in .expand() or a TaskFlow .partial(), where Airflow cannot route on it",
    boundary="parse",
    check=check_unmappable_routing,
)
