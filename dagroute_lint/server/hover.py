"""The hover on a task call: the routing Airflow will give the task, and who runs it."""

from __future__ import annotations

from dagroute_lint.resolve.placement import PlacedTask
from dagroute_lint.resolve.repository import AnalysedFile
from dagroute_lint.resolve.tasks import ResolvedTask

_SHOWN = ("queue", "executor", "pool", "pool_slots", "deferrable")


def tasks_on_line(file: AnalysedFile, line: int) -> list[ResolvedTask]:
    """Tasks whose call starts on the 1-based ``line``."""
    return [task for task in file.tasks if task.task.position.line == line]


def routing_markdown(file: AnalysedFile, tasks: list[ResolvedTask]) -> str:
    """Each task's resolved routing as Markdown, one block per task."""
    placed = {id(entry.task): entry for entry in file.placed}
    blocks = [_task_block(task, placed.get(id(task))) for task in tasks]
    return "\n\n---\n\n".join(blocks)


def _task_block(task: ResolvedTask, placed: PlacedTask | None) -> str:
    operator = f" (`{task.operator}`)" if task.operator else ""
    lines = [f"**{_escape(task.label)}**{operator}", ""]
    for name in _SHOWN:
        field = task.fields.get(name)
        if field is None:
            continue
        if field.known:
            value = "default executor" if name == "executor" and field.value is None else None
            shown = value or f"`{field.value!r}`"
            origin = "" if field.explicit else " (Airflow's default)"
            lines.append(f"- {name}: {shown}{origin}")
        else:
            lines.append(f"- {name}: unknown: {_escape(field.reason)}")
    lines.append(f"- {_placement(task, placed)}")
    return "\n".join(lines)


def _placement(task: ResolvedTask, placed: PlacedTask | None) -> str:
    """Which workers serve the task, in the words of the deployment's inventory."""
    if not task.dispatched:
        return "workers: none needed (the scheduler completes this task without an executor)"
    if placed is None:
        return "workers: unknown (no inventory: add dagroute.toml to say what the deployment runs)"
    placement = placed.placement
    if placement.executor is None:
        return "workers: unknown (the executor is unresolved or not configured in the inventory)"
    executor = placement.executor.display_name
    if placement.queue is None and placement.executor.honours_queue is True:
        return f"workers: unknown (the queue is unresolved; executor {executor})"
    if not placement.workers:
        return f"workers: **none** serve this task on executor {executor}"
    served = ", ".join(
        f"`{worker.name}` (runtime `{worker.runtime}`)" for worker in placement.workers
    )
    return f"workers on executor {executor}: {served}"


def _escape(text: str) -> str:
    """Text as Markdown shows it literally."""
    return "".join(f"\\{char}" if char in "\\`*_[]<>" else char for char in text)
