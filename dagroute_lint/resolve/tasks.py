"""Resolve every task's routing exactly as Airflow would hold it on the parsed task.

Precedence (airflow-semantics §1.1, verified against Airflow 3.3): an attribute assigned after
construction, then the explicit keyword argument (``queue=None`` included), then the task's own
``default_args``, the innermost TaskGroup's ``default_args`` outwards, the DAG's ``default_args``,
and finally Airflow's built-in default (``[operators] default_queue``, ``default_pool``...).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import field
from datetime import timedelta

from dagroute_lint.catalog import operator_traits as traits
from dagroute_lint.catalog.airflow_defaults import DEFAULT_POOL, DEFAULT_POOL_SLOTS
from dagroute_lint.catalog.providers import (
    moved_import,
    provider_for_decorator,
    provider_for_module,
)
from dagroute_lint.model import (
    Const,
    DictExpr,
    Expr,
    Module,
    Position,
    SeqExpr,
    Site,
    Task,
)
from dagroute_lint.records import record, replace
from dagroute_lint.resolve.policies import (
    POLICY_FIELDS,
    Attribute,
    PolicyStep,
    SettingsPolicy,
    Subject,
    apply_policy,
    known,
    operator_classes,
)
from dagroute_lint.resolve.values import (
    ABSENT,
    MAX_DEPTH,
    Known,
    Resolved,
    SymbolTable,
    Unresolved,
    candidates,
    choices,
)

ROUTING_FIELDS = ("queue", "executor", "pool", "pool_slots")

# What the inventory's default queue does not decide.
_BUILTIN_DEFAULTS: dict[str, object] = {
    "executor": None,
    "pool": DEFAULT_POOL,
    "pool_slots": DEFAULT_POOL_SLOTS,
}

# Keys that make an EmptyOperator reach an executor after all (semantics §9.7).
_EMPTY_OPERATOR_ESCAPES = ("on_execute_callback", "on_success_callback", "inlets", "outlets")

# ``@task.stub`` passes these explicitly as None, so default_args never reach them (§1.3).
_STUB_NONE_FIELDS = ("queue", "executor")


@record
class Field:
    """One resolved routing value and where it came from.

    ``origin`` is ``"default"`` when nothing in the DAG file set the value. ``reason`` says why a
    value is unknown, or for a task that defers, what makes it defer. ``candidates`` are, for an
    unknown value, every value it can take (Airflow holds one of them), in the order found.
    ``key`` names the keyword such a value was read from where the field combines several
    (deferral: ``deferrable`` or ``start_from_trigger``). ``at``, for an unknown value, is where
    the expression that made it unknown is written (its cause), where that is known.
    """

    value: object
    known: bool
    origin: str
    reason: str = ""
    candidates: tuple[object, ...] = ()
    key: str = ""
    at: Site | None = None

    @property
    def explicit(self) -> bool:
        return self.origin != "default"


@record
class IdClash:
    """A task group, or a task, whose full id its DAG already uses for a group or a task made
    before it: Airflow raises ``DuplicateTaskIdFound`` (a task meeting a task is DRL003's own
    comparison, not one of these). ``earlier`` is where the first one is made."""

    kind: str  # "task group" or "task"
    full_id: str
    position: Position
    dag: int
    earlier_kind: str
    earlier: Position


@record
class Setting:
    """One keyword the task is given, at one level of precedence, with where it was written.

    ``value`` is folded as far as literals allow: dict keys and list items stay visible even when
    some leaves are ``Unresolved`` (``{"pod_override": k8s.V1Pod(...)}`` still shows its key).
    ``origin`` is ``assignment``, ``argument`` or the ``default_args`` level it comes from.
    """

    name: str
    value: object
    origin: str
    position: Position


@record
class UnknownKey:
    """A dict key no value can be known for (``{KEY: 1}``, ``KEY`` from outside): the entry is
    kept, under its place in the dict, so that the dict is not taken for empty (DRL501); rules
    that read keys by name pass it over, as they do any key that is not a string."""

    place: int


@record
class Sensor:
    """A sensor's waiting behaviour: ``mode`` and ``timeout`` (seconds) as resolved fields."""

    mode: Field
    timeout: Field


@record
class ResolvedTask:
    """A task with its final ids and routing; rules work on these.

    ``dispatched`` is false for tasks the scheduler completes without sending them anywhere.
    ``layers`` are the ``default_args`` levels that reach the task, highest precedence first,
    each named as ``Field.origin`` and ``Setting.origin`` name it, with where it is written.
    ``policy`` are the effects of the cluster policy that reached the task, in the order Airflow
    runs them (a field the last certain one set has its label as ``Field.origin``).
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
    settings: tuple[Setting, ...] = ()
    sensor: Sensor | None = None
    layers: tuple[tuple[str, Position], ...] = ()
    policy: tuple[PolicyStep, ...] = ()

    def setting(self, name: str) -> Setting | None:
        """The setting of ``name`` that wins, or ``None`` when nothing in the file sets it."""
        return next((found for found in self.settings if found.name == name), None)

    def variants(self, names: Iterable[str]) -> Iterator[tuple[ResolvedTask, dict[str, object]]]:
        """The task once for each combination of the candidates of fields ``names``, with those
        fields known, and which values were chosen; the task itself when none has candidates."""
        chosen = [name for name in names if self.fields[name].candidates]
        if not chosen:
            yield self, {}
            return
        for values in itertools.product(*(self.fields[name].candidates for name in chosen)):
            fields = dict(self.fields)
            for name, value in zip(chosen, values):
                fields[name] = Field(value, True, self.fields[name].origin)
            unresolved = tuple(item for item in self.unresolved if item[0] not in chosen)
            yield replace(self, fields=fields, unresolved=unresolved), dict(zip(chosen, values))

    @property
    def label(self) -> str:
        """How messages name the task: ``task 'x' in dag 'y'``, and ``(if this task is
        created)`` for a task built under a condition the walk could not decide."""
        task = self.task_id if self.task_id is not None else "<unknown id>"
        dag = f"dag '{self.dag_id}'" if self.dag_id is not None else UNKNOWN_DAG
        label = f"task '{task}' in {dag}"
        return f"{label} (if this task is created)" if self.task.conditional else label


# How a message names the DAG of a task whose DAG id cannot be known statically.
UNKNOWN_DAG = "a dag whose id is not known statically"


def _made_order(module: Module) -> list[tuple[int, int, int]]:
    """The module's groups (kind 0) and tasks (kind 1) as ``(created, kind, index)``, in the
    order the walk made them: the order Airflow meets their ids."""
    return sorted(
        [(group.created, 0, index) for index, group in enumerate(module.groups)]
        + [(task.created, 1, index) for index, task in enumerate(module.tasks)]
    )


class Resolver:
    """Resolves the tasks of modules against a repository-wide symbol table."""

    def __init__(
        self,
        symbols: SymbolTable,
        default_queue: str,
        airflow_major: int,
        policy: SettingsPolicy | None = None,
    ) -> None:
        self.symbols = symbols
        self.default_queue = default_queue
        self.airflow_major = airflow_major
        self.policy = policy
        self._own_group_ids: dict[int, str | None] = {}
        self._suffix_unknown: set[int] = set()  # groups whose __N suffix cannot be known
        # default_args dicts are shared by every task of a DAG or group: fold each once per run.
        # Keyed by identity: the modules, and so their expressions, live as long as the run.
        self._layer_keys: dict[tuple[int, str], Resolved | None] = {}
        self._layer_settings: dict[tuple[int, str, Position], tuple[Setting, ...]] = {}
        self._routes_by_class: dict[str, tuple[str, frozenset[str]] | None] = {}

    def tasks(self, module: Module) -> Iterator[ResolvedTask]:
        """Resolved tasks of the module's DAGs, in creation order; DAG-less tasks are skipped.

        A task built in more than one branch the walk could not decide (the same id in the same
        DAG, each conditional) is one task: a field the branches give different values is
        unresolved rather than taken from either branch."""
        found = _dropped_dags(list(self._each_task(module)))
        by_key: dict[tuple[int | None, str], list[ResolvedTask]] = {}
        for task in found:
            if task.task_id is not None and task.task.conditional:
                by_key.setdefault((task.task.dag, task.task_id), []).append(task)
        for task in found:
            same = by_key.get((task.task.dag, task.task_id or ""), [task])
            if len(same) == 1:
                yield task
            elif task is same[0]:
                yield _merged(same)

    def _each_task(self, module: Module) -> Iterator[ResolvedTask]:
        """Each task of the module's DAGs, resolved on its own."""
        task_ids = self._assign_ids(module)
        twice = self._dags_defined_twice(module)
        for index, written in enumerate(module.tasks):
            if index not in task_ids:
                continue
            task = written
            if task.dag in twice and not task.conditional:
                task = replace(task, conditional=True)
            yield self.resolve(module, task, task_ids[index])

    def _in_a_dag(self, task: Task) -> bool:
        """Whether Airflow adds the task to a DAG: it has one, and its operator can be one (not
        a dataclass or NamedTuple of the repository called with ``task_id=``)."""
        return task.dag is not None and (
            task.operator is None or self.symbols.can_be_operator(task.operator)
        )

    def id_clashes(self, module: Module, tasks: Iterable[ResolvedTask]) -> Iterator[IdClash]:
        """Classic ``TaskGroup``s whose full id meets a task or group id their DAG used before,
        and tasks whose id meets a group's, in the order the file made them (Airflow 2.10.5 and
        3.3.2 check both: ``_check_for_group_id_collisions``, ``TaskGroup.add``). Only what
        certainly happens counts: a task or group made under a condition the walk could not
        decide, inside a decorator it did not follow, or with an id it cannot know is left out
        (``@task_group`` renames itself instead). Runs after ``tasks(module)``, whose group ids
        (with their ``__N`` suffixes) it reads."""
        task_ids = {id(task.task): task.task_id for task in tasks}
        used: dict[int, dict[str, tuple[str, Position]]] = {}
        made = _made_order(module)
        for _, kind, index in made:
            if kind:
                task = module.tasks[index]
                full = task_ids.get(id(task))
                if task.dag is None or full is None or task.conditional or task.wrapped:
                    continue
                seen = used.setdefault(task.dag, {})
                earlier = seen.get(full)
                if earlier is not None and earlier[0] == "task group":
                    yield IdClash("task", full, task.position, task.dag, *earlier)
                seen.setdefault(full, ("task", task.position))
                continue
            group = module.groups[index]
            group_id = self._group_id(module, index)
            if group.dag is None or group_id is None or group.conditional:
                continue
            seen = used.setdefault(group.dag, {})
            earlier = seen.get(group_id)
            if earlier is not None and not group.suffix_on_collision:
                yield IdClash("task group", group_id, group.position, group.dag, *earlier)
            seen.setdefault(group_id, ("task group", group.position))

    def dag_ids(self, module: Module) -> Iterator[str | None]:
        """The id of each DAG of the module, ``None`` where it cannot be known."""
        for dag in module.dags:
            yield self._string(dag.dag_id)

    def dag_arguments(self, module: Module) -> Iterator[tuple[Setting, ...] | None]:
        """The keywords each DAG of the module is built with, folded (``None`` for a DAG a
        repository subclass builds)."""
        for dag in module.dags:
            arguments = dag.arguments
            if arguments is None:
                yield None
                continue
            yield tuple(
                Setting(
                    name,
                    self.partial(expr),
                    "argument",
                    arguments.positions.get(name, dag.position),
                )
                for name, expr in arguments.named.items()
            )

    def _dags_defined_twice(self, module: Module) -> set[int]:
        """DAGs of the file that share their id with another one Airflow collects: which of
        them Airflow keeps is not decided by the file, so their tasks are conditional."""
        by_id: dict[str, list[int]] = {}
        for index, dag in enumerate(module.dags):
            dag_id = self._string(dag.dag_id)
            if dag.registered and dag_id is not None:
                by_id.setdefault(dag_id, []).append(index)
        return {index for indexes in by_id.values() if len(indexes) > 1 for index in indexes}

    def resolve(self, module: Module, task: Task, task_id: str | None) -> ResolvedTask:
        """The task's routing, with its full id as ``_assign_ids`` gave it."""
        dag = module.dags[task.dag] if task.dag is not None else None
        dag_id = self._string(dag.dag_id) if dag is not None else None
        fields = {name: self.field(module, task, name) for name in ROUTING_FIELDS}
        steps: tuple[PolicyStep, ...] = ()
        if self.policy is not None and self.policy.policy.effects:
            fields, steps = self._policy(module, task, fields, dag_id, task_id)
        fields["deferrable"] = self.deferrable(module, task)
        fields = _bounded(fields)
        unresolved = tuple(
            (name, value.reason) for name, value in fields.items() if not value.known
        )
        if dag_id is None and dag is not None:
            unresolved += (("dag_id", self._reason(dag.dag_id)),)
        origin = self.symbols.defined_as(task.operator) if task.operator is not None else None
        if isinstance(origin, Unresolved):
            unresolved += (("operator", origin.reason),)
        if task_id is None:
            own_known = self._string(task.task_id) is not None
            reason = (
                self._group_reason(module, task.group) if own_known else self._reason(task.task_id)
            )
            unresolved += (("task_id", reason),)
        return ResolvedTask(
            module=module,
            task=task,
            dag_id=dag_id,
            task_id=task_id,
            operator=self.operator_name(task),
            provider=self.provider(task),
            fields=fields,
            unresolved=unresolved,
            dispatched=self.dispatched(module, task),
            settings=tuple(self.settings(module, task)),
            sensor=self.sensor(module, task),
            layers=tuple((origin, at) for origin, _, at in self.default_args_layers(module, task)),
            policy=steps,
        )

    def _policy(
        self,
        module: Module,
        task: Task,
        fields: dict[str, Field],
        dag_id: str | None,
        task_id: str | None,
    ) -> tuple[dict[str, Field], tuple[PolicyStep, ...]]:
        """The routing fields after the cluster policy, and its effects that reached the task."""
        assert self.policy is not None
        subject = Subject(
            {
                "task_id": _attribute(task_id),
                "dag_id": _attribute(dag_id),
                "owner": self._owner(module, task),
                "task_type": _attribute(
                    traits.class_name(self.operator_name(task)) if task.taskflow is None else None
                ),
            },
            {name: _as_resolved(fields[name]) for name in POLICY_FIELDS},
            None
            if task.mapped
            else operator_classes(
                self.operator_name(task), self.airflow_major, self.symbols, self.class_path
            ),
        )
        outcome = apply_policy(self.policy, subject, self.symbols, self.airflow_major)
        changed = dict(fields)
        for name in POLICY_FIELDS:
            steps = [step for step in outcome.steps if step.field == name]
            if not steps:
                continue
            certain = [step for step in steps if step.certain]
            origin = certain[-1].label if certain else fields[name].origin
            after = self._field(name, outcome.routing[name], origin)
            if not after.known:
                after = replace(after, origin=steps[-1].label)
            changed[name] = after
        reject = (outcome.rejected,) if outcome.rejected is not None else ()
        return changed, (*outcome.steps, *reject)

    def _owner(self, module: Module, task: Task) -> Attribute:
        """``task.owner``: the keyword or ``default_args``, else ``[operators] default_owner``
        (Airflow's ``airflow``; the inventory does not model the setting)."""
        found = self.find(module, task, "owner")
        if found is None:
            return known(_DEFAULT_OWNER)
        owner = self._field("owner", found[1], found[0], _DEFAULT_OWNER)
        if owner.known:
            return known(owner.value)
        return Attribute(owner.candidates or None)

    def operator_name(self, task: Task) -> str | None:
        """The operator class by the path Airflow holds it under: ``task.<kind>`` for TaskFlow,
        and under Airflow 3 an Airflow 2 import path by where its shim forwards
        (``airflow.operators.bash.BashOperator`` is the standard provider's class)."""
        if task.taskflow is not None:
            return f"task.{task.taskflow}"
        origin = self.operator_origin(task)
        return None if origin is None else self.class_path(origin)

    def operator_origin(self, task: Task) -> str | None:
        """The classic operator's class by the name it is defined under (through the
        repository modules that re-export it); ``None`` when not known."""
        if task.operator is None:
            return None
        origin = self.symbols.defined_as(task.operator)
        return origin if isinstance(origin, str) else None

    def class_path(self, qualname: str) -> str:
        """An Airflow class by the path Airflow holds it under (a 3.x shim's target)."""
        if self.airflow_major < 3 or "." not in qualname:
            return qualname
        module, _, name = qualname.rpartition(".")
        move = moved_import(module, name)
        if move is None or move.removed or move.new_module is None:
            return qualname
        new_name = name if move.new_name in (None, "*") else move.new_name
        return f"{move.new_module}.{new_name}"

    def provider(self, task: Task) -> str | None:
        if task.taskflow is not None:
            return provider_for_decorator(task.taskflow, self.airflow_major)
        origin = self.operator_origin(task)
        if origin is None or "." not in origin:
            return None
        return provider_for_module(origin.rsplit(".", 1)[0], self.airflow_major)

    # --- routing fields ------------------------------------------------------------------------

    def field(self, module: Module, task: Task, name: str) -> Field:
        default = self.default_queue if name == "queue" else _BUILTIN_DEFAULTS[name]
        found = self.find(module, task, name)
        if found is not None:
            origin, value = found
            return self._field(name, value, origin, default)
        return Field(default, True, "default")

    def find(self, module: Module, task: Task, name: str) -> tuple[str, Resolved] | None:
        """Where the operator gets ``name`` from, highest precedence first; ``None``: nowhere.

        A level that may lack the key (a ``default_args`` that is one of several dicts) lets the
        levels below it decide too: its candidates and theirs are the value's candidates, and
        ``ABSENT`` stays among them when no level may be the one that sets it."""
        return _first_found(self._levels(module, task, name))

    def _levels(self, module: Module, task: Task, name: str) -> Iterator[tuple[str, Resolved]]:
        if name in task.overridden:
            yield "assignment", self.symbols.evaluate(task.overridden[name])
        routed = self._class_routes(task)
        if routed is not None and (name in routed[1] or "*" in routed[1]):
            reason = f"class {routed[0]} may set '{name}' in its own code, which is not followed"
            yield "assignment", Unresolved(reason, at=self.symbols.class_site(routed[0]))
        for given in self._arguments(task, name):
            yield "argument", given
        if task.taskflow == "stub" and name in _STUB_NONE_FIELDS:
            yield "argument", Known(None)
        for origin, default_args, _ in self.default_args_layers(module, task):
            found = self._layer_key(default_args, name)
            if found is not None:
                yield origin, found

    def _class_routes(self, task: Task) -> tuple[str, frozenset[str]] | None:
        origin = self.operator_origin(task)
        if origin is None or task.taskflow is not None or task.constructed:
            return None
        if origin not in self._routes_by_class:
            self._routes_by_class[origin] = self.symbols.class_routes(origin)
        return self._routes_by_class[origin]

    def _layer_key(self, default_args: Expr, name: str) -> Resolved | None:
        key = (id(default_args), name)
        if key not in self._layer_keys:
            self._layer_keys[key] = self.symbols.lookup_key(default_args, name)
        return self._layer_keys[key]

    def dispatched(self, module: Module, task: Task) -> bool:
        """False for an EmptyOperator the scheduler marks SUCCESS without any executor.

        Airflow 3 ``TaskInstance.is_task_schedulable``: an EmptyOperator reaches an executor
        only with a truthy callback, inlets or outlets, from any level (default_args count).
        """
        if task.taskflow is not None or traits.class_name(task.operator) != "EmptyOperator":
            return True
        for key in _EMPTY_OPERATOR_ESCAPES:
            found = self.find(module, task, key)
            if found is not None and not (isinstance(found[1], Known) and not found[1].value):
                return True
        return False

    def _arguments(self, task: Task, name: str) -> Iterator[Resolved]:
        """The value of keyword ``name`` at the call site, following ``**spreads``."""
        arguments = task.arguments
        if name in arguments.named:
            yield self.symbols.evaluate(arguments.named[name])
            return
        for spread in arguments.spreads:
            found = self.symbols.lookup_key(spread, name)
            if found is not None:
                yield found

    def default_args_layers(
        self, module: Module, task: Task
    ) -> Iterator[tuple[str, Expr, Position]]:
        """``default_args`` that reach the task, highest priority first, and where each is."""
        own = task.arguments.named.get("default_args")
        if own is not None:
            yield (
                "task default_args",
                own,
                task.arguments.positions.get("default_args", task.position),
            )
        if not task.applies_default_args:
            return
        group_index = task.group
        while group_index is not None:
            group = module.groups[group_index]
            if group.default_args is not None:
                label = self._string(group.group_id)
                yield f"TaskGroup '{label}' default_args", group.default_args, group.position
            group_index = group.parent
        if task.dag is not None:
            dag = module.dags[task.dag]
            dag_args = task.dag_default_args or dag.default_args
            if dag_args is not None:
                yield "DAG default_args", dag_args, dag.position

    # --- deferral and sensors (semantics §5) ---------------------------------------------------

    def deferrable(self, module: Module, task: Task) -> Field:
        """Whether the task defers to the triggerer: ``*Async`` classes, ``start_from_trigger``
        or ``deferrable``, each from ``default_args`` only where the class takes the key.

        TaskFlow functions never defer, except the pod-launching decorators. The worker's
        ``[operators] default_deferrable`` is not modelled: unset means Airflow's ``false``.
        """
        if task.taskflow is not None and task.taskflow not in traits.DEFERRABLE_DECORATORS:
            return Field(False, True, "default")
        name = traits.class_name(task.operator) if task.taskflow is None else None
        if traits.always_defers(name):
            return Field(True, True, f"class {name}", f"{name} always defers")
        trigger = self._operator_flag(module, task, "start_from_trigger")
        if trigger.known and trigger.value:
            return replace(trigger, reason=_set_true("start_from_trigger", trigger.origin))
        flag = self._operator_flag(module, task, "deferrable")
        if flag.known and flag.value:
            return replace(flag, reason=_set_true("deferrable", flag.origin))
        if trigger.candidates and (flag.known or flag.candidates):
            # defers when start_from_trigger is true, whatever deferrable is
            return replace(trigger, key="start_from_trigger")
        return replace(flag, key="deferrable") if flag.candidates else flag

    def _operator_flag(self, module: Module, task: Task, key: str) -> Field:
        found = self.operator_key(module, task, key)
        if found is None:
            return Field(False, True, "default")
        origin, resolved = found
        values = choices(resolved)
        if values is None:
            assert isinstance(resolved, Unresolved)
            return Field(None, False, origin, resolved.reason, at=resolved.at)
        flags = candidates([value is not ABSENT and bool(value) for value in values], "")
        if isinstance(flags, Known):
            return Field(flags.value, True, origin)
        reason = resolved.reason if isinstance(resolved, Unresolved) else ""
        return Field(None, False, origin, reason, flags.candidates)

    def operator_key(self, module: Module, task: Task, key: str) -> tuple[str, Resolved] | None:
        """``find`` for a key that ``BaseOperator.__init__`` does not take (semantics §1.1, §1.5).

        ``default_args`` reach such a key only when the class's ``__init__`` names it, and never
        a classic mapped operator: ``partial()`` keeps only BaseOperator parameters from them.
        """
        found = self.find(module, task, key)
        if found is None or not found[0].endswith("default_args") or task.taskflow is not None:
            return found
        name = traits.class_name(task.operator)
        reaches = False if task.mapped else traits.accepts(name, key)
        if reaches is False:
            return None
        if reaches is None:
            reason = f"{found[0]} set '{key}', which reaches {name} only if its __init__ takes it"
            return found[0], Unresolved(reason)
        return found

    def sensor(self, module: Module, task: Task) -> Sensor | None:
        """``mode`` (default ``poke``) and ``timeout`` (default 7 days) of a sensor task."""
        if not traits.is_sensor(task.operator, task.taskflow):
            return None
        mode = self.operator_key(module, task, "mode")
        mode_field = Field("poke", True, "default")
        if mode is not None:
            mode_field = self._field("mode", mode[1], mode[0])
        timeout = self.operator_key(module, task, "timeout")
        if timeout is None or (isinstance(timeout[1], Known) and timeout[1].value is None):
            return Sensor(mode_field, Field(traits.DEFAULT_SENSOR_TIMEOUT, True, "default"))
        origin, resolved = timeout
        if isinstance(resolved, Known):
            seconds = resolved.value
            if isinstance(seconds, timedelta):
                seconds = seconds.total_seconds()
            if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
                return Sensor(mode_field, Field(float(seconds), True, origin))
            return Sensor(mode_field, Field(None, False, origin, "not a number of seconds"))
        return Sensor(mode_field, Field(None, False, origin, resolved.reason))

    # --- every keyword, for rules about argument values ----------------------------------------

    def settings(self, module: Module, task: Task) -> Iterator[Setting]:
        """Keywords the task is given, highest precedence first: assignments, call-site
        arguments, ``**`` spreads, then each ``default_args`` level."""
        for name, expr in task.overridden.items():
            yield Setting(name, self.partial(expr), "assignment", task.position)
        arguments = task.arguments
        for name, expr in arguments.named.items():
            if name != "default_args":
                position = arguments.positions.get(name, task.position)
                yield Setting(name, self.partial(expr), "argument", position)
        for spread in arguments.spreads:
            yield from self._dict_settings(spread, "argument", task.position)
        for origin, default_args, position in self.default_args_layers(module, task):
            key = (id(default_args), origin, position)
            if key not in self._layer_settings:
                self._layer_settings[key] = tuple(
                    self._dict_settings(default_args, origin, position)
                )
            yield from self._layer_settings[key]

    def _dict_settings(self, expr: Expr, origin: str, position: Position) -> Iterator[Setting]:
        folded = self.partial(expr)
        if isinstance(folded, dict):
            for key, item in folded.items():
                if isinstance(key, str):
                    yield Setting(key, item, origin, position)

    def partial(self, expr: Expr, depth: int = 0) -> object:
        """Fold ``expr`` keeping the shape of dicts and lists; unknown leaves are ``Unresolved``."""
        if depth > MAX_DEPTH:
            return Unresolved("expression nested too deeply")
        expr = self.symbols.deref(expr, depth)
        if isinstance(expr, SeqExpr):
            return [self.partial(item, depth + 1) for item in expr.items]
        if isinstance(expr, DictExpr):
            result: dict[object, object] = {}
            for place, (key, item) in enumerate(expr.parts):
                value = self.partial(item, depth + 1)
                if key is None:
                    if isinstance(value, dict):
                        result.update(value)
                    continue
                resolved_key = self.symbols.evaluate(key, depth + 1)
                if isinstance(resolved_key, Known) and _hashable(resolved_key.value):
                    result[resolved_key.value] = value
                else:
                    result[UnknownKey(place)] = value
            return result
        resolved = self.symbols.evaluate(expr, depth + 1)
        return resolved.value if isinstance(resolved, Known) else resolved

    def _field(self, name: str, resolved: Resolved, origin: str, default: object = None) -> Field:
        """``default`` is the value where a candidate says no level sets the key."""
        values = choices(resolved)
        if values is None:
            assert isinstance(resolved, Unresolved)
            return Field(None, False, origin, resolved.reason, at=resolved.at)
        held: list[object] = []
        for value in values:
            if isinstance(value, timedelta):
                # A duration is no queue, pool or executor: Airflow rejects it when it parses.
                return Field(None, False, origin, f"a timedelta, which is not a valid {name}")
            given = default if value is ABSENT else value
            # BaseOperator: pool=None means the default pool.
            held.append(DEFAULT_POOL if name == "pool" and given is None else given)
        reason = resolved.reason if isinstance(resolved, Unresolved) else ""
        final = candidates(held, reason)
        if isinstance(final, Known):
            return Field(final.value, True, origin)
        return Field(None, False, origin, final.reason, final.candidates)

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

    def _assign_ids(self, module: Module) -> dict[int, str | None]:
        """The full id of each task Airflow adds to a DAG (by index), and each group's own id
        after ``@task_group``'s ``__N`` suffixes, worked out in the order the file made them.

        Mirrors ``TaskGroup._check_for_group_id_collisions`` and ``DAG.add_task`` (task-sdk
        1.3.2): the ids a group meets are the DAG's task ids and the ids and join ids of its
        groups made before it. A decorated group made after a task whose id cannot be known may
        meet it: its suffix, and so its id, is unknown then.
        """
        self._own_group_ids = {}
        self._suffix_unknown = set()
        used: dict[int | None, set[str]] = {}
        taskflow_ids: dict[int | None, set[str]] = {}  # the DAG's task_dict, for get_unique_task_id
        unknown_task: set[int | None] = set()  # DAGs with a task id that cannot be known
        task_ids: dict[int, str | None] = {}
        made = _made_order(module)
        for _, kind, index in made:
            if kind:
                task = module.tasks[index]
                if not self._in_a_dag(task):
                    continue
                full = self._task_id(module, task, taskflow_ids.setdefault(task.dag, set()))
                task_ids[index] = full
                if full is None:
                    unknown_task.add(task.dag)
                else:
                    used.setdefault(task.dag, set()).add(full)
                continue
            group = module.groups[index]
            if group.suffix_on_collision and group.dag in unknown_task:
                self._own_group_ids[index] = None
                self._suffix_unknown.add(index)
            else:
                self._assign_group_id(module, index, used.setdefault(group.dag, set()))
        return task_ids

    def _assign_group_id(self, module: Module, index: int, ids: set[str]) -> None:
        """The group's own id, suffixed when it meets one of ``ids`` (the ids its DAG used so
        far), which then get the group's full id and join ids."""
        group = module.groups[index]
        own = self._string(group.group_id)
        self._own_group_ids[index] = own
        full = self._group_id(module, index)
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
        if own and full is not None:
            ids.update((full, f"{full}.downstream_join_id", f"{full}.upstream_join_id"))

    def _group_reason(self, module: Module, group: int | None) -> str:
        """Why a task of ``group`` (whose own id is known) has no id: which enclosing group."""
        while group is not None:
            if group in self._suffix_unknown:
                return _GROUP_SUFFIX_UNKNOWN
            group = module.groups[group].parent
        return _GROUP_UNKNOWN

    def _own_id(self, module: Module, index: int) -> str | None:
        if index in self._own_group_ids:
            return self._own_group_ids[index]
        return self._string(module.groups[index].group_id)

    def _group_id(self, module: Module, index: int) -> str | None:
        """``TaskGroup.group_id``: the parent's ``child_id`` of the group's own id.

        Airflow prefixes only when the parent prefixes and has a non-empty id, which is what
        ``child_id`` checks too; ``None`` when any id or flag on the way cannot be known.
        """
        own = self._own_id(module, index)
        group = module.groups[index]
        if own is None or group.parent is None:
            return own
        return self._child_id(module, group.parent, own)

    def _child_id(self, module: Module, index: int, label: str) -> str | None:
        """``TaskGroup.child_id``: ``label`` under the group's id when the group prefixes."""
        group = module.groups[index]
        prefix = self._flag(group.prefix_group_id)
        if prefix is None:
            return None
        if not prefix:
            return label
        group_id = self._group_id(module, index)
        if group_id is None:
            return None
        return f"{group_id}.{label}" if group_id else label

    def _flag(self, expr: Expr) -> bool | None:
        """The truth of a flag argument, ``None`` when it cannot be known."""
        resolved = self.symbols.evaluate(expr)
        return bool(resolved.value) if isinstance(resolved, Known) else None

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


_GROUP_UNKNOWN = "the id or prefix_group_id of an enclosing TaskGroup cannot be known statically"
_GROUP_SUFFIX_UNKNOWN = (
    "an enclosing @task_group's id may meet the id of a task made before it, which cannot be "
    "known statically; Airflow then suffixes the group (__N)"
)


_DEFAULT_OWNER = "airflow"


def _attribute(value: object) -> Attribute:
    return known(value) if value is not None else Attribute(None)


def _as_resolved(found: Field) -> Resolved:
    if found.known:
        return Known(found.value)
    return Unresolved(found.reason, found.candidates, found.at)


def _dropped_dags(tasks: list[ResolvedTask]) -> list[ResolvedTask]:
    """The tasks, those of a DAG a cluster policy may reject made conditional: ``bag_dag``
    drops the whole DAG when a policy raises for any of its tasks."""
    dropped: dict[int | None, PolicyStep] = {}
    for task in tasks:
        for step in task.policy:
            if step.field == "reject":
                dropped.setdefault(task.task.dag, step)
    if not dropped:
        return tasks
    return [
        replace(
            task,
            task=replace(task.task, conditional=True),
            policy=task.policy
            if any(step.field == "reject" for step in task.policy)
            else (*task.policy, dropped[task.task.dag]),
        )
        if task.task.dag in dropped
        else task
        for task in tasks
    ]


def _set_true(key: str, origin: str) -> str:
    """``deferrable=True``, ``start_from_trigger=True from DAG default_args``..."""
    return f"{key}=True" if origin == "argument" else f"{key}=True from {origin}"


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _merged(branches: list[ResolvedTask]) -> ResolvedTask:
    """One task for the branches that may build it: fields they agree on, the others unknown."""
    first = branches[0]
    fields = dict(first.fields)
    unresolved = dict(first.unresolved)
    for name, value in first.fields.items():
        others = [branch.fields[name] for branch in branches[1:]]
        # Unknown in every branch is agreement only with the same candidates: a branch's own
        # candidates are values Airflow may hold.
        if all(
            other.known == value.known
            and repr(other.value) == repr(value.value)
            and repr(other.candidates) == repr(value.candidates)
            for other in others
        ):
            continue
        reason = "the task is built in branches that give it different values"
        held: list[object] = []
        for each in (value, *others):
            if not each.known and not each.candidates:
                held = []
                break
            held.extend(each.candidates if not each.known else (each.value,))
        merged = candidates(held, reason) if held else Unresolved(reason)
        if isinstance(merged, Known):  # the branches differ in form only
            fields[name] = Field(merged.value, True, value.origin)
            unresolved.pop(name, None)
            continue
        fields[name] = Field(None, False, value.origin, reason, merged.candidates)
        unresolved[name] = reason
    return replace(first, fields=fields, unresolved=tuple(unresolved.items()))


# Combinations of candidates a rule checks one by one for a task, at most.
MAX_VARIANTS = 64


def _bounded(fields: dict[str, Field]) -> dict[str, Field]:
    """Fields whose candidates combine into more variants than rules check become unknown."""
    size = 1
    for found in fields.values():
        size *= max(1, len(found.candidates))
    if size <= MAX_VARIANTS:
        return fields
    return {
        name: replace(found, reason=f"{found.reason}, with too many combinations", candidates=())
        if found.candidates
        else found
        for name, found in fields.items()
    }


def _first_found(levels: Iterable[tuple[str, Resolved]]) -> tuple[str, Resolved] | None:
    """The first level that sets the key; one that may not (``ABSENT`` among its candidates)
    lets the next decide too, and the candidates of both are the value's."""
    gathered: list[object] = []
    first: tuple[str, str] | None = None  # the origin and reason of the first such level
    for origin, found in levels:
        if isinstance(found, Unresolved) and ABSENT in found.candidates:
            first = first or (origin, found.reason)
            gathered.extend(value for value in found.candidates if value is not ABSENT)
            continue
        if first is None:
            return origin, found
        values = choices(found)
        if values is None:
            return first[0], found
        return first[0], candidates([*gathered, *values], first[1])
    if first is None:
        return None
    return first[0], candidates([*gathered, ABSENT], first[1])
