"""Resolve every task's routing exactly as Airflow would hold it on the parsed task.

Precedence (airflow-semantics §1.1, verified against Airflow 3.3): an attribute assigned after
construction, then the explicit keyword argument (``queue=None`` included), then the task's own
``default_args``, the innermost TaskGroup's ``default_args`` outwards, the DAG's ``default_args``,
and finally Airflow's built-in default (``[operators] default_queue``, ``default_pool``...).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from dagroute_lint.model import Const, Expr, Module, Task
from dagroute_lint.providers import provider_for_decorator, provider_for_module
from dagroute_lint.symbols import Known, Resolved, SymbolTable, Unresolved

ROUTING_FIELDS = ("queue", "executor", "pool", "pool_slots")
DEFAULT_POOL = "default_pool"

# What the inventory's default queue does not decide.
_BUILTIN_DEFAULTS: dict[str, object] = {"executor": None, "pool": DEFAULT_POOL, "pool_slots": 1}

# Keys that make an EmptyOperator reach an executor after all (semantics §9.7).
_EMPTY_OPERATOR_ESCAPES = ("on_execute_callback", "on_success_callback", "inlets", "outlets")

# ``@task.stub`` passes these explicitly as None, so default_args never reach them (§1.3).
_STUB_NONE_FIELDS = ("queue", "executor")


@dataclass(frozen=True)
class Field:
    """One resolved routing value and where it came from.

    ``origin`` is ``"default"`` when nothing in the DAG file set the value.
    """

    value: object
    known: bool
    origin: str
    reason: str = ""

    @property
    def explicit(self) -> bool:
        return self.origin != "default"


@dataclass(frozen=True)
class ResolvedTask:
    """A task with its final ids and routing; rules work on these.

    ``dispatched`` is false for tasks the scheduler completes without sending them anywhere.
    """

    module: Module
    task: Task
    dag_id: str | None
    task_id: str | None
    operator: str | None
    provider: str | None
    fields: dict[str, Field] = field(default_factory=dict)
    unresolved: tuple[tuple[str, str], ...] = ()
    dispatched: bool = True

    @property
    def label(self) -> str:
        """How messages name the task: ``task 'x' in dag 'y'``."""
        task = self.task_id if self.task_id is not None else "<unknown id>"
        dag = self.dag_id if self.dag_id is not None else "<unknown dag>"
        return f"task '{task}' in dag '{dag}'"


class Resolver:
    """Resolves the tasks of modules against a repository-wide symbol table."""

    def __init__(self, symbols: SymbolTable, default_queue: str, airflow_major: int) -> None:
        self.symbols = symbols
        self.default_queue = default_queue
        self.airflow_major = airflow_major
        self._own_group_ids: dict[int, str | None] = {}

    def tasks(self, module: Module) -> Iterator[ResolvedTask]:
        """Resolved tasks of the module's DAGs, in creation order; DAG-less tasks are skipped."""
        self._assign_group_ids(module)
        seen: dict[int, set[str]] = {}
        for task in module.tasks:
            if task.dag is None:
                continue
            dag_ids = seen.setdefault(task.dag, set())
            yield self.resolve(module, task, dag_ids)

    def resolve(self, module: Module, task: Task, dag_task_ids: set[str]) -> ResolvedTask:
        dag = module.dags[task.dag] if task.dag is not None else None
        dag_id = self._string(dag.dag_id) if dag is not None else None
        task_id = self._task_id(module, task, dag_task_ids)
        fields = {name: self.field(module, task, name) for name in ROUTING_FIELDS}
        unresolved = tuple(
            (name, value.reason) for name, value in fields.items() if not value.known
        )
        if dag_id is None and dag is not None:
            unresolved += (("dag_id", self._reason(dag.dag_id)),)
        if task_id is None:
            unresolved += (("task_id", self._reason(task.task_id)),)
        return ResolvedTask(
            module=module,
            task=task,
            dag_id=dag_id,
            task_id=task_id,
            operator=task.operator if task.taskflow is None else f"task.{task.taskflow}",
            provider=self.provider(task),
            fields=fields,
            unresolved=unresolved,
            dispatched=self.dispatched(module, task),
        )

    def provider(self, task: Task) -> str | None:
        if task.taskflow is not None:
            return provider_for_decorator(task.taskflow, self.airflow_major)
        if task.operator is None or "." not in task.operator:
            return None
        return provider_for_module(task.operator.rsplit(".", 1)[0], self.airflow_major)

    # --- routing fields ------------------------------------------------------------------------

    def field(self, module: Module, task: Task, name: str) -> Field:
        found = self.find(module, task, name)
        if found is not None:
            origin, value = found
            return self._field(name, value, origin)
        default = self.default_queue if name == "queue" else _BUILTIN_DEFAULTS[name]
        return Field(default, True, "default")

    def find(self, module: Module, task: Task, name: str) -> tuple[str, Resolved] | None:
        """Where the operator gets ``name`` from, highest precedence first; ``None``: nowhere."""
        if name in task.overridden:
            return "assignment", self.symbols.evaluate(task.overridden[name])
        found = self.argument(task, name)
        if found is not None:
            return "argument", found
        if task.taskflow == "stub" and name in _STUB_NONE_FIELDS:
            return "argument", Known(None)
        for origin, default_args in self.default_args_layers(module, task):
            found = self.symbols.lookup_key(default_args, name)
            if found is not None:
                return origin, found
        return None

    def dispatched(self, module: Module, task: Task) -> bool:
        """False for an EmptyOperator the scheduler marks SUCCESS without any executor.

        Airflow 3 ``TaskInstance.is_task_schedulable``: an EmptyOperator reaches an executor
        only with a truthy callback, inlets or outlets, from any level (default_args count).
        """
        if task.taskflow is not None or (task.operator or "").rsplit(".", 1)[-1] != (
            "EmptyOperator"
        ):
            return True
        for key in _EMPTY_OPERATOR_ESCAPES:
            found = self.find(module, task, key)
            if found is not None and not (isinstance(found[1], Known) and not found[1].value):
                return True
        return False

    def argument(self, task: Task, name: str) -> Resolved | None:
        """The value of keyword ``name`` at the call site, following ``**spreads``."""
        arguments = task.arguments
        if name in arguments.named:
            return self.symbols.evaluate(arguments.named[name])
        for spread in arguments.spreads:
            found = self.symbols.lookup_key(spread, name)
            if found is not None:
                return found
        return None

    def default_args_layers(self, module: Module, task: Task) -> Iterator[tuple[str, Expr]]:
        """``default_args`` that reach the task, highest priority first."""
        own = task.arguments.named.get("default_args")
        if own is not None:
            yield "task default_args", own
        if not task.applies_default_args:
            return
        group_index = task.group
        while group_index is not None:
            group = module.groups[group_index]
            if group.default_args is not None:
                label = self._string(group.group_id)
                yield f"TaskGroup '{label}' default_args", group.default_args
            group_index = group.parent
        if task.dag is not None:
            dag = module.dags[task.dag]
            if dag.default_args is not None:
                yield "DAG default_args", dag.default_args

    def _field(self, name: str, resolved: Resolved, origin: str) -> Field:
        if isinstance(resolved, Known):
            value = resolved.value
            if name == "pool" and value is None:
                value = DEFAULT_POOL  # BaseOperator: pool=None means the default pool
            return Field(value, True, origin)
        return Field(None, False, origin, resolved.reason)

    # --- ids -----------------------------------------------------------------------------------

    def _task_id(self, module: Module, task: Task, dag_task_ids: set[str]) -> str | None:
        raw = self._string(task.task_id)
        if raw is None:
            return None
        group = task.group
        full = self._child_id(module, group, raw) if group is not None else raw
        if full is None:
            return None
        if task.taskflow is not None and full in dag_task_ids:
            # TaskFlow de-duplicates repeated calls: fn, fn__1, fn__2 (get_unique_task_id).
            prefix = re.split(r"__\d+$", full)[0]
            suffixes = [0]
            for existing in dag_task_ids:
                match = re.match(rf"^{prefix}__(\d+)$", existing)
                if match:
                    suffixes.append(int(match.group(1)))
            core = re.split(r"__\d+$", raw)[0]
            raw = f"{core}__{max(suffixes) + 1}"
            full = self._child_id(module, group, raw) if group is not None else raw
            if full is None:
                return None
        dag_task_ids.add(full)
        return full

    def _assign_group_ids(self, module: Module) -> None:
        """Each group's own id after ``@task_group``'s ``__N`` suffixes, in creation order.

        Mirrors ``TaskGroup._check_for_group_id_collisions`` (task-sdk 1.3.2).
        """
        self._own_group_ids = {}
        used: dict[int | None, set[str]] = {}
        for index, group in enumerate(module.groups):
            own = self._string(group.group_id)
            self._own_group_ids[index] = own
            full = self._group_id(module, index)
            ids = used.setdefault(group.dag, set())
            if own is not None and full is not None and full in ids and group.suffix_on_collision:
                base = re.split(r"__\d+$", own)[0]
                suffixes = sorted(
                    int(re.split(r"^.+__", existing)[1])
                    for existing in ids
                    if re.match(rf"^{base}__\d+$", existing)
                )
                own = f"{base}__{suffixes[-1] + 1}" if suffixes else f"{own}__1"
                self._own_group_ids[index] = own
                full = self._group_id(module, index)
            if full is not None:
                ids.add(full)

    def _own_id(self, module: Module, index: int) -> str | None:
        if index in self._own_group_ids:
            return self._own_group_ids[index]
        return self._string(module.groups[index].group_id)

    def _group_id(self, module: Module, index: int) -> str | None:
        """``TaskGroup.group_id``: prefixed by the parent when the parent prefixes its children."""
        own = self._own_id(module, index)
        group = module.groups[index]
        if own is None or group.parent is None:
            return own
        parent = module.groups[group.parent]
        parent_own = self._own_id(module, group.parent)
        if parent_own and self._flag(parent.prefix_group_id):
            return self._child_id(module, group.parent, own)
        return own

    def _child_id(self, module: Module, index: int, label: str) -> str | None:
        group = module.groups[index]
        if not self._flag(group.prefix_group_id):
            return label
        group_id = self._group_id(module, index)
        if group_id is None:
            return None if self._own_id(module, index) is None else label
        return f"{group_id}.{label}" if group_id else label

    def _flag(self, expr: Expr) -> bool:
        resolved = self.symbols.evaluate(expr)
        return bool(resolved.value) if isinstance(resolved, Known) else True

    def _string(self, expr: Expr) -> str | None:
        resolved = self.symbols.evaluate(expr)
        if isinstance(resolved, Known) and isinstance(resolved.value, str):
            return resolved.value
        return None

    def _reason(self, expr: Expr) -> str:
        resolved = self.symbols.evaluate(expr)
        if isinstance(resolved, Unresolved):
            return resolved.reason
        if isinstance(expr, Const) and expr.value is None:
            return "not given"
        return "not a string"
