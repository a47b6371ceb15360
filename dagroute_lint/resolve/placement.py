"""Where a resolved task lands in the deployment: its executor, its queue, the workers it reaches.

Rules about dispatch and startup ask the same questions, so the answers live here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from dagroute_lint.deployment.executors import ExecutorEntry
from dagroute_lint.deployment.inventory import Inventory, Worker
from dagroute_lint.records import record
from dagroute_lint.resolve.tasks import ResolvedTask


@record
class Placement:
    """The executor and workers a task can be sent to.

    ``executor`` is ``None`` when the task's ``executor=`` is unresolved or names nothing the
    deployment configures; ``queue`` is ``None`` when the queue is unresolved. ``workers`` are
    the workers that can receive the task, empty unless both are known.
    """

    executor: ExecutorEntry | None
    queue: str | None
    workers: tuple[Worker, ...]


class PlacedTask(NamedTuple):
    """A task the scheduler sends to an executor, and where it lands."""

    task: ResolvedTask
    placement: Placement


def place_dispatched(tasks: Iterable[ResolvedTask], inventory: Inventory) -> tuple[PlacedTask, ...]:
    """Every dispatched task of ``tasks`` with its placement, worked out once for all consumers.

    Tasks the scheduler completes without an executor (``dispatched`` false) land nowhere.
    """
    return tuple(PlacedTask(task, place(task, inventory)) for task in tasks if task.dispatched)


# The fields a task's placement depends on.
PLACEMENT_FIELDS = ("queue", "executor")


def variant_placements(
    placed: PlacedTask, inventory: Inventory, names: Iterable[str] = PLACEMENT_FIELDS
) -> Iterator[tuple[ResolvedTask, dict[str, object], Placement]]:
    """The task once for each combination of the candidates of ``names``, with the values
    chosen and where it lands then; itself and its placement when none has candidates."""
    for variant, chosen in placed.task.variants(names):
        placement = place(variant, inventory) if chosen else placed.placement
        yield variant, chosen, placement


def place(task: ResolvedTask, inventory: Inventory) -> Placement:
    executor_field = task.fields["executor"]
    executor: ExecutorEntry | None = None
    if executor_field.known:
        name = executor_field.value
        if name is None:
            executor = inventory.default_executor
        elif isinstance(name, str):
            executor = inventory.resolve_executor(name)
    queue_field = task.fields["queue"]
    queue: str | None = None
    if queue_field.known:
        value = queue_field.value
        # queue=None is dropped at serialization: the scheduler uses the default queue (§1.3).
        queue = inventory.default_queue if value is None else str(value)
    if executor is None:
        return Placement(None, queue, ())
    own = workers_of(inventory, executor)
    if executor.honours_queue is not True:
        return Placement(executor, queue, own)
    if queue is None:
        return Placement(executor, None, ())
    serving = tuple(worker for worker in own if worker.queues is None or queue in worker.queues)
    return Placement(executor, queue, serving)


def workers_of(inventory: Inventory, executor: ExecutorEntry) -> tuple[Worker, ...]:
    return tuple(
        worker
        for worker in inventory.workers
        if worker.executor.module_path == executor.module_path
    )


def served_queues(inventory: Inventory, executor: ExecutorEntry) -> list[str]:
    """Queues the executor's workers subscribe to, for 'what is available instead'."""
    queues: set[str] = set()
    for worker in workers_of(inventory, executor):
        if worker.queues is not None:
            queues.update(worker.queues)
    return sorted(queues)
