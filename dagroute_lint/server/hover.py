"""The hover on a task call: the routing Airflow will give the task, which level of its
precedence set each value, and who runs it (``trace``'s own trace, shortened)."""

from __future__ import annotations

from dagroute_lint.formatters.trace import NOT_SET, Trace, build_trace
from dagroute_lint.resolve.placement import PlacedTask
from dagroute_lint.resolve.repository import AnalysedFile
from dagroute_lint.resolve.tasks import ResolvedTask


def tasks_on_line(file: AnalysedFile, line: int) -> list[ResolvedTask]:
    """Tasks whose call starts on the 1-based ``line``."""
    return [task for task in file.tasks if task.task.position.line == line]


def routing_markdown(file: AnalysedFile, tasks: list[ResolvedTask]) -> str:
    """Each task's resolved routing as Markdown, one block per task."""
    placed = {id(entry.task): entry for entry in file.placed}
    blocks = [
        _task_block(build_trace(task, placed.get(id(task))), placed.get(id(task))) for task in tasks
    ]
    return "\n\n---\n\n".join(blocks)


def _task_block(trace: Trace, placed: PlacedTask | None) -> str:
    task = trace.task
    operator = f" (`{task.operator}`)" if task.operator else ""
    lines = [f"**{_escape(task.label)}**{operator}", ""]
    for found in trace.fields:
        field = found.field
        layer = found.applied
        if not field.known:
            lines.append(f"- {found.name}: unknown: {_escape(field.reason)}")
            continue
        if layer is None or layer.origin == "default":
            origin = f" ({_escape(layer.label)})" if layer is not None else ""
        else:
            origin = f" (set by {_escape(layer.label)}, line {layer.line})"
        value = NOT_SET if found.unset else f"`{field.value!r}`"
        lines.append(f"- {found.name}: {value}{origin}")
    lines.append(f"- {_placement(trace, placed)}")
    return "\n".join(lines)


def _placement(trace: Trace, placed: PlacedTask | None) -> str:
    """Which workers serve the task, in the words of the deployment's inventory."""
    if not trace.task.dispatched:
        return "workers: none needed (the scheduler completes this task without an executor)"
    if placed is None:
        return "workers: unknown (no inventory: add dagroute.toml to say what the deployment runs)"
    if trace.executor is None:
        return "workers: unknown (the executor is unresolved or not configured in the inventory)"
    if trace.workers is None:
        return f"workers: unknown (the queue is unresolved; executor {trace.executor})"
    if not trace.workers:
        return f"workers: **none** serve this task on executor {trace.executor}"
    served = ", ".join(f"`{worker.name}` (runtime `{worker.runtime}`)" for worker in trace.workers)
    return f"workers on executor {trace.executor}: {served}"


def _escape(text: str) -> str:
    """Text as Markdown shows it literally."""
    return "".join(f"\\{char}" if char in "\\`*_[]<>" else char for char in text)
