"""DRL303-DRL304: tasks that wait, and what they hold while waiting (airflow-semantics §5)."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.catalog import operator_traits as traits
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.base import DeploymentContext, DeploymentRule
from dagroute_lint.rules.choices import shown
from dagroute_lint.rules.open_facts import OpenFact, undecided
from dagroute_lint.wording import duration

# A poke-mode sensor allowed to wait at least this long (seconds) is worth a slot-free wait.
LONG_WAIT = 3600.0


def check_deferrable_without_triggerer(context: DeploymentContext) -> Iterator[Diagnostic]:
    has_triggerer = context.inventory.has_triggerer
    if has_triggerer:
        return
    if has_triggerer is None:
        deferring = [task for task, _ in context.placed if _may_defer(task)]
        if deferring:
            yield undecided(context, OpenFact("triggerer"), deferring)
        return
    for task, _ in context.placed:
        deferrable = task.fields["deferrable"]
        if deferrable.candidates and True in deferrable.candidates:
            yield context.report(
                task.task.position,
                f"{task.label} defers to the triggerer when {deferrable.key} is True (one of "
                f"{', '.join(shown(value) for value in deferrable.candidates)}: "
                f"{deferrable.reason}), but the deployment runs no triggerer; the task then "
                "stays DEFERRED and never resumes",
                kind="triggerer",
                task=task,
                routing=("deferrable",),
            )
        if not (deferrable.known and deferrable.value is True):
            continue
        yield context.report(
            task.task.position,
            f"{task.label} defers to the triggerer ({deferrable.reason}), but the "
            "deployment runs no triggerer; the task stays DEFERRED and never resumes",
            kind="triggerer",
            task=task,
            routing=("deferrable",),
        )


def _may_defer(task: ResolvedTask) -> bool:
    deferrable = task.fields["deferrable"]
    return (deferrable.known and deferrable.value is True) or True in deferrable.candidates


def check_poke_sensor_holds_slot(context: DeploymentContext) -> Iterator[Diagnostic]:
    inventory = context.inventory
    for task, _ in context.placed:
        sensor = task.sensor
        deferrable = task.fields["deferrable"]
        if sensor is None or deferrable.value is not False:
            continue
        if not (sensor.mode.known and sensor.mode.value == "poke"):
            continue
        timeout = sensor.timeout.value
        if not sensor.timeout.known or not isinstance(timeout, float) or timeout < LONG_WAIT:
            continue
        name = traits.class_name(task.operator) if task.task.taskflow is None else None
        if inventory.has_triggerer is True and traits.accepts(name, "deferrable"):
            advice = "a triggerer runs: set deferrable=True to wait without a worker"
        else:
            advice = 'set mode="reschedule" to free both slots between pokes'
        limit = duration(timeout)
        how = "the default timeout" if sensor.timeout.origin == "default" else "its timeout"
        yield context.report(
            task.task.position,
            f"{task.label} waits in poke mode for up to {limit} ({how}), holding a worker slot "
            f"and a pool slot the whole time; {advice}",
            kind="triggerer",
            task=task,
        )


DEFERRABLE_WITHOUT_TRIGGERER = DeploymentRule(
    code="DRL303",
    name="deferrable-without-triggerer",
    summary="deferrable task (deferrable=True, *Async class, start_from_trigger) and no triggerer",
    boundary="waiting",
    check=check_deferrable_without_triggerer,
)
POKE_SENSOR_HOLDS_SLOT = DeploymentRule(
    code="DRL304",
    name="poke-sensor-holds-slot",
    summary="sensor in poke mode with a long timeout where deferral or reschedule would free it",
    boundary="waiting",
    check=check_poke_sensor_holds_slot,
    severity="warning",
    default_enabled=False,
)
