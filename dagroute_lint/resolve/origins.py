"""Which level of Airflow's precedence set a task's routing field, and where it is written.

Shared by ``trace`` (every level, in a table) and the rules' diagnostics (the one level that
set the value a diagnostic is about, as related information): one reading of the resolver's
``Field.origin``, ``Setting.origin`` and ``ResolvedTask.layers``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.model import Position
from dagroute_lint.resolve.policies import PolicyStep
from dagroute_lint.resolve.tasks import ResolvedTask, Setting

# Levels written on the task's own call (or a decorator's), where its keywords are.
_ON_THE_CALL = ("argument", "assignment")


def field_keys(name: str) -> tuple[str, ...]:
    """The keywords that set field ``name``: deferral is set by either of two."""
    return ("deferrable", "start_from_trigger") if name == "deferrable" else (name,)


def settings_of(task: ResolvedTask, keys: Sequence[str]) -> list[Setting]:
    """The task's settings of ``keys``, highest precedence first."""
    return [setting for setting in task.settings if setting.name in keys]


def level_label(origin: str) -> str:
    """A ``default_args`` level as people read it."""
    return "the task's own default_args" if origin == "task default_args" else origin


def argument_label(task: ResolvedTask) -> str:
    """The task's own keywords: on the call, on ``.partial()`` for a mapped classic operator
    (Airflow routes every map index alike), on ``@task(...)`` / ``.override()`` for TaskFlow."""
    kind = task.task.taskflow
    if kind == "stub":
        return "@task.stub (passes queue=None, executor=None)"
    if kind is not None:
        decorator = "@task" if kind == "python" else f"@task.{kind}"
        return f"the keyword of {decorator}(...) or .override()"
    if task.task.mapped:
        return "the keyword of .partial()"
    return "the keyword on the call"


def set_at(task: ResolvedTask, name: str) -> tuple[str, Position] | None:
    """The level that set field ``name`` (its ``Field.origin``) and where that level writes it;
    ``None`` where nothing in the file did (Airflow's or the deployment's default, the class)."""
    origin = task.fields[name].origin
    for setting in settings_of(task, field_keys(name)):
        if setting.origin == origin:
            return origin, setting.position
    for layer, position in task.layers:
        if layer == origin:
            return origin, position
    if origin in _ON_THE_CALL:
        return origin, task.task.position
    return None


def set_elsewhere(task: ResolvedTask, name: str, at: Position) -> tuple[str, Position] | None:
    """``set_at``, where the level is another than the call a diagnostic stands at (``at``):
    a ``default_args`` level, ``.partial()`` of a mapped classic operator, or a TaskFlow
    task's ``@task(...)`` / ``.override()``; never a keyword or assignment of the call itself."""
    found = set_at(task, name)
    if found is None or found[1] == at or found[0] == "assignment":
        return None
    if found[0] == "argument" and not _away_from_the_call(task):
        return None
    return found


def _away_from_the_call(task: ResolvedTask) -> bool:
    """Whether the task's own keywords are written elsewhere than on its call."""
    kind = task.task.taskflow
    return task.task.mapped if kind is None else kind != "stub"


def policy_step(task: ResolvedTask, name: str) -> PolicyStep | None:
    """The cluster policy's effect that set field ``name``, when a policy's hook is the level
    Airflow's value comes from (its ``Field.origin``); it is written in the settings file."""
    origin = task.fields[name].origin
    return next((step for step in task.policy if step.field == name and step.label == origin), None)


def where_phrase(task: ResolvedTask, origin: str) -> str:
    """``in DAG 'lab' default_args``: the level, named for a message."""
    if origin == "DAG default_args":
        if task.dag_id is None:
            return "in the DAG's default_args"
        return f"in DAG '{task.dag_id}' default_args"
    if origin == "argument":
        return f"by {argument_label(task)}"
    if origin == "assignment":
        return "by an assignment after construction"
    return f"in {level_label(origin)}"
