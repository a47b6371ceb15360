"""The tasks of a file grouped by what makes their routing unknown (DRL105): one report a cause.

A ``Variable.get("q")`` in a DAG's ``default_args`` makes the queue of every task of the DAG
unknown; reported task by task, it printed the same warning a hundred times, at a hundred calls,
for one line to change. A cause is the expression that made a value unknown (``Field.at``) with
its reason: it is reported there when it is in the linted file, else at the first task it
reaches, pointing at it. Where the model could not place it, the keyword that sets the field (or
the task's call) stands in, so that tasks one call builds in a loop still share one report.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field

from dagroute_lint.diagnostics import Related
from dagroute_lint.model import Position, Site
from dagroute_lint.records import record
from dagroute_lint.resolve.policies import POLICY_CAUSE
from dagroute_lint.resolve.tasks import ROUTING_FIELDS, ResolvedTask

# Tasks named in a message, at most: the facts list them all.
NAMED_TASKS = 5


@record(frozen=False)
class Cause:
    """One cause: its ``reason``, where it is written (``site``, ``None`` where not known), where
    it is reported in the linted file (``position``), and each task it reaches with the fields
    of that task it makes unknown, in the order the file builds them."""

    reason: str
    site: Site | None
    position: Position
    tasks: dict[int, tuple[ResolvedTask, list[str]]] = field(default_factory=dict)

    @property
    def fields(self) -> list[str]:
        """Every field the cause makes unknown, in ``ROUTING_FIELDS`` order."""
        found = {name for _, names in self.tasks.values() for name in names}
        return [name for name in ROUTING_FIELDS if name in found]

    @property
    def reached(self) -> list[ResolvedTask]:
        return [task for task, _ in self.tasks.values()]


def causes(path: str, tasks: Sequence[ResolvedTask]) -> list[Cause]:
    """The causes of the unknown routing fields of ``tasks`` (of the file ``path``), in the
    order the tasks meet them. A field that is one of several known values is left out: the
    rules check it value by value instead, and so is one a mapped task group expands: DRL104
    says the file does not load."""
    found: dict[tuple[object, ...], Cause] = {}
    for task in tasks:
        for name in ROUTING_FIELDS:
            value = task.fields[name]
            if value.known or value.candidates or name in task.task.group_expanded:
                continue
            site = value.at
            stand_in = task.task.arguments.positions.get(name, task.task.position)
            if site is not None and site.path == path:
                key: tuple[object, ...] = (value.reason, site)
                position = site.position
            else:  # elsewhere: one report at its first task; not placed: one per stand-in
                key = (value.reason, site, stand_in if site is None else None)
                position = stand_in
            cause = found.setdefault(key, Cause(value.reason, site, position))
            cause.tasks.setdefault(id(task), (task, []))[1].append(name)
    return _joined_on_a_line(found.values())


def _joined_on_a_line(found: Iterable[Cause]) -> list[Cause]:
    """Causes of one reason written on one line for the same tasks are one cause:
    ``queue=os.environ["Q"], pool=os.environ["P"]`` is one line to change, said once."""
    joined: dict[tuple[object, ...], Cause] = {}
    for cause in found:
        key = (cause.reason, cause.position.line, frozenset(cause.tasks), cause.site is None)
        first = joined.setdefault(key, cause)
        if first is not cause:
            for task_key, (_task, names) in cause.tasks.items():
                first.tasks[task_key][1].extend(names)
    return list(joined.values())


def message(cause: Cause) -> str:
    """``a value that cannot be known ... (reason) sets the queue of 5 tasks in dag 'x' ('t0',
    't1', ...); whether a worker serves them is unproven``."""
    reached = cause.reached
    them = "it" if len(reached) == 1 else "them"
    unknown = "a value that cannot be known without running the DAG file"
    if cause.reason.startswith(POLICY_CAUSE):
        unknown = "a value that cannot be known statically"
    return (
        f"{unknown} ({cause.reason}) sets the "
        f"{_fields(cause)} of {tasks_phrase(reached)}; whether a worker serves {them} is unproven"
    )


def related(path: str, cause: Cause) -> tuple[Related, ...]:
    """Where the cause is written, when that is not where it is reported, and where the tasks
    it reaches are built, away from it (one place for the tasks one call builds in a loop)."""
    found: list[Related] = []
    site = cause.site
    if site is not None and site.path != path:
        line, column = site.position.line, site.position.column
        found.append(
            Related(site.path, line, column, f"the value is written here ({cause.reason})")
        )
    built: dict[Position, list[ResolvedTask]] = {}
    for task in cause.reached:
        if task.task.position != cause.position:
            built.setdefault(task.task.position, []).append(task)
    for position, tasks in built.items():
        text = f"{tasks_phrase(tasks)} built here"
        found.append(Related(path, position.line, position.column, text))
    return tuple(found)


def _fields(cause: Cause) -> str:
    """``queue``, ``queue and pool`` (each task's), ``queue or pool`` (some tasks' one)."""
    fields = cause.fields
    if len(fields) == 1:
        return fields[0]
    every = all(len(names) == len(fields) for _, names in cause.tasks.values())
    return ", ".join(fields[:-1]) + (" and " if every else " or ") + fields[-1]


def tasks_phrase(tasks: Sequence[ResolvedTask]) -> str:
    """``task 'z' in dag 'x'``, ``5 tasks in dag 'x' ('t0', 't1', ...)``, ``7 tasks in 2 dags
    ('t0' in 'a', 't0' in 'b', ...)``: counted, the first few named."""
    if len(tasks) == 1:
        return tasks[0].label
    dags = list(dict.fromkeys(task.dag_id for task in tasks))
    if len(dags) == 1:
        where = f"in dag '{_shown(dags[0], 'dag')}'"
        names = [f"'{_shown(task.task_id, 'id')}'" for task in tasks]
    else:
        where = f"in {len(dags)} dags"
        names = [
            f"'{_shown(task.task_id, 'id')}' in '{_shown(task.dag_id, 'dag')}'" for task in tasks
        ]
    listed = ", ".join(names[:NAMED_TASKS])
    if len(names) > NAMED_TASKS:
        listed += f" and {len(names) - NAMED_TASKS} more"
    return f"{len(tasks)} tasks {where} ({listed})"


def _shown(name: str | None, what: str) -> str:
    return name if name is not None else f"<unknown {what}>"
