"""``dagroute-lint trace``: where each routing value of one task comes from, and who runs it.

``build_trace`` works out, from a resolved task (and where the pipeline placed it), every level
of Airflow's precedence that could set each routing field, in the resolver's own order and
words (``Field.origin``, ``Setting.origin``), which one did, with file and line; the executor
and why; the workers serving the task, their runtimes, and what the task needs there, judged by
the rules' own helpers. The command line renders it as text or JSON, the language server's hover
as a shorter Markdown (``server/hover.py``): one trace, several renderings.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, field

from dagroute_lint.catalog.airflow_defaults import DEFAULT_POOL, DEFAULT_POOL_SLOTS, DEFAULT_QUEUE
from dagroute_lint.deployment.inventory import Inventory, Requirement, Runtime, Worker
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.routes import served
from dagroute_lint.model import LEGACY_TASK_POLICY, POLICY_HOOKS, Module
from dagroute_lint.records import record
from dagroute_lint.resolve.origins import argument_label, field_keys, level_label, settings_of
from dagroute_lint.resolve.placement import PlacedTask
from dagroute_lint.resolve.policies import PolicyStep
from dagroute_lint.resolve.repository import Repository
from dagroute_lint.resolve.tasks import Field, ResolvedTask
from dagroute_lint.resolve.values import Known, Unresolved
from dagroute_lint.rules.packages import PACKAGE_MISSING_ON_WORKER, nowhere, package_imports
from dagroute_lint.rules.parse_boundary import Need as ProviderNeed
from dagroute_lint.rules.parse_boundary import has_package, has_provider
from dagroute_lint.rules.providers import parse_needs, task_needs
from dagroute_lint.rules.runtimes import CodeRuns, code_runs
from dagroute_lint.wording import close_matches

TRACE_VERSION = 1
NOT_SET = "not set"  # a field nothing sets, for people; JSON keeps Airflow's null
TRACED_FIELDS = ("queue", "executor", "pool", "pool_slots", "deferrable")

# What each field is when nothing in the DAG file sets it, in the words of Airflow's settings;
# the inventory says the deployment's for the first two ([deployment] default_queue, executors).
_FROM_INVENTORY = ("queue", "executor")
_BUILTIN: dict[str, object] = {
    "pool": DEFAULT_POOL,
    "pool_slots": DEFAULT_POOL_SLOTS,
    "deferrable": False,  # the worker's [operators] default_deferrable is not modelled
}
_DEFAULT_LABELS = {
    "queue": "[operators] default_queue",
    "executor": "the default executor: first of [core] executor",
    "pool": "Airflow's default",
    "pool_slots": "Airflow's default",
    "deferrable": "the operator's default: [operators] default_deferrable",
}


@record
class Layer:
    """One level of Airflow's precedence that could set a field, highest first.

    ``origin`` is the level as the resolver names it (``argument``, ``DAG default_args``,
    ``default``...), ``label`` how people read it. ``sets``: the level gives the field a value
    (``value``; ``known`` false with ``reason`` when it cannot be known). ``applied``: Airflow's
    value comes from this level. ``line`` is ``None`` for a level written nowhere (Airflow's
    built-in defaults, without an inventory to say the deployment's).
    """

    origin: str
    label: str
    file: str | None
    line: int | None
    sets: bool
    value: object = None
    known: bool = True
    reason: str = ""
    applied: bool = False


@record
class FieldTrace:
    """One routing field: the value Airflow holds (``Field``), and every level that could set it."""

    name: str
    field: Field
    layers: tuple[Layer, ...]
    # The level that decides may lack the key (a ``default_args`` that is one of several dicts):
    # the levels below it decide then, and their values are among the field's candidates.
    may_lack_key: bool = False

    @property
    def applied(self) -> Layer | None:
        return next((layer for layer in self.layers if layer.applied), None)

    @property
    def unset(self) -> bool:
        """Nothing sets the field and Airflow holds ``None`` (the executor: the default one)."""
        found = self.field
        return found.known and found.value is None and found.origin == "default"


@record
class Need:
    """A provider or package the task needs where it runs, why, and whether a runtime has it
    (``None``: the runtime does not say)."""

    kind: str  # "provider" or "package"
    name: str
    why: str
    line: int
    has: bool | None


@record
class ServingWorker:
    """A worker that will run the task, its runtime, the task's needs there, and what the
    runtime lists (as the inventory writes it; ``None``: it does not say)."""

    name: str
    runtime: str
    needs: tuple[Need, ...]
    providers: tuple[str, ...] | None = None
    packages: tuple[str, ...] | None = None


@record
class UnknownValue:
    """A value of the task that cannot be known statically, why, and what it can be."""

    name: str
    reason: str
    candidates: tuple[object, ...] = ()


@record
class Trace:
    """Everything ``trace`` says about one task (see the module's docstring).

    ``executor`` is the executor's name in the deployment (``None``: not known, or no inventory)
    and ``executor_why`` why the task goes there; ``workers`` are the workers serving it
    (``None``: not known), ``workers_why`` what decides them; ``notes`` what the trace cannot
    see or the task's code does elsewhere.
    """

    task: ResolvedTask
    operator_written: str | None
    provider_why: str
    fields: tuple[FieldTrace, ...]
    executor: str | None
    executor_why: str
    workers: tuple[ServingWorker, ...] | None
    workers_why: str
    unknowns: tuple[UnknownValue, ...]
    notes: tuple[str, ...] = ()

    @property
    def file(self) -> str:
        return self.task.module.path

    def field(self, name: str) -> FieldTrace:
        return next(found for found in self.fields if found.name == name)


@record
class Deployment:
    """What a trace judges the task's workers with: the inventory, the Airflow version, and
    the repository's modules (for the imports a file reaches through them)."""

    inventory: Inventory
    airflow_major: int
    lookup: Callable[[str], Module | None]
    first_party: Callable[[str], bool]
    # Where the project holds a module on no import root (DRL206's, never a package).
    off_roots: Callable[[str], object] = nowhere
    _file_needs: dict[str, list[ProviderNeed]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def file_needs(self, module: Module) -> list[ProviderNeed]:
        """The providers ``module`` needs wherever it loads (DRL202's ``parse_needs``), worked
        out once per file: every worker of every task of the file asks for them."""
        if module.path not in self._file_needs:
            self._file_needs[module.path] = parse_needs(module, self.airflow_major, self.lookup)
        return self._file_needs[module.path]


GENERIC_POLICY_NOTE = (
    "cluster policies (airflow_local_settings.py) are not known here: one may still rewrite "
    "queue, pool or executor"
)


# --- the trace ---------------------------------------------------------------------------------


def build_trace(
    task: ResolvedTask,
    placed: PlacedTask | None = None,
    deployment: Deployment | None = None,
    inventory_file: str | None = None,
    policy: str = GENERIC_POLICY_NOTE,
) -> Trace:
    """The trace of ``task``; ``placed`` is where the pipeline placed it (``None``: not
    dispatched, or no inventory), ``deployment`` what judges its workers' runtimes (``None``:
    their needs are left out, as the hover leaves them); ``policy`` what is known of the
    cluster policies (``policy_note``)."""
    inventory = deployment.inventory if deployment is not None else None
    fields = tuple(_field_trace(task, name, inventory, inventory_file) for name in TRACED_FIELDS)
    executor, executor_why = _executor(task, placed, inventory)
    workers, workers_why = _workers(task, placed, deployment)
    unknowns = tuple(
        UnknownValue(name, reason, task.fields[name].candidates if name in task.fields else ())
        for name, reason in task.unresolved
    )
    return Trace(
        task=task,
        operator_written=task.task.operator,
        provider_why=_provider_why(task),
        fields=fields,
        executor=executor,
        executor_why=executor_why,
        workers=workers,
        workers_why=workers_why,
        unknowns=unknowns,
        notes=(*_notes(task), policy),
    )


def trace_repository(repository: Repository, tasks: Sequence[ResolvedTask]) -> list[Trace]:
    """The traces of ``tasks``, which are the repository's, under its inventory."""
    placed = {id(entry.task): entry for entry in repository.placed}
    inventory = repository.inventory
    deployment = None
    if inventory is not None:
        locations = repository.locations
        deployment = Deployment(
            inventory,
            repository.airflow_major,
            repository.lookup,
            repository.first_party,
            locations.off_roots if locations is not None else nowhere,
        )
    shown = _shown_path(inventory.path) if inventory is not None else None
    policy = policy_note(repository)
    return [build_trace(task, placed.get(id(task)), deployment, shown, policy) for task in tasks]


def policy_note(repository: Repository) -> str:
    """What the trace says of cluster policies: the file Airflow imports them from, which
    hooks it defines and that they were applied; or that none was found, and where it was
    looked for (a deployment's file outside the repository is not seen)."""
    settings = repository.policy
    inventory = repository.inventory
    if settings is None:
        if inventory is not None and inventory.local_settings is False:
            return "the inventory says the deployment has no airflow_local_settings.py"
        return (
            "no airflow_local_settings.py in [deployment] local_settings, the roots setting, "
            "the repository root or its config/ and plugins/ folders; a cluster policy the "
            "deployment imports from elsewhere is not seen and may still rewrite queue, pool "
            "or executor"
        )
    shown = _shown_path(settings.path)
    hooks = settings.policy.hooks
    if not hooks:
        return f"{shown} defines no {_or(POLICY_HOOKS)}: no cluster policy rewrites routing"
    named = ", ".join(f"{name} (line {line})" for name, line in hooks.items())
    return f"{shown} defines {named}, applied to every task above the DAG file's levels"


def _field_trace(
    task: ResolvedTask, name: str, inventory: Inventory | None, inventory_file: str | None
) -> FieldTrace:
    """Every level that could set ``name``, highest precedence first (semantics §1.1)."""
    found = task.fields[name]
    keys = field_keys(name)
    path = task.module.path
    at = task.task.position.line
    levels: list[tuple[str, str, int | None]] = []
    layers: list[Layer] = [
        _policy_layer(step, found) for step in reversed(task.policy) if step.field == name
    ]
    if found.origin.startswith("class "):  # an *Async class: it defers whatever it is given
        levels.append((found.origin, f"the operator class ({found.reason})", at))
    written = settings_of(task, keys)
    if found.origin == "assignment" or any(s.origin == "assignment" for s in written):
        levels.append(("assignment", _assignment_label(task, name), at))
    levels.append(("argument", argument_label(task), at))
    levels += [(origin, level_label(origin), where.line) for origin, where in task.layers]
    may_lack_key = False
    for origin, label, line in levels:
        settings = [s for s in written if s.origin == origin]
        applied = origin == found.origin
        if settings:
            setting = settings[0]
            value = setting.value
            unknown = isinstance(value, Unresolved)
            layers.append(
                Layer(
                    origin,
                    _keyed(label, setting.name, name),
                    path,
                    setting.position.line,
                    sets=True,
                    value=None if unknown else value,
                    known=not unknown,
                    reason=value.reason if isinstance(value, Unresolved) else "",
                    applied=applied,
                )
            )
        elif applied:  # set, through a value the settings cannot fold (one of several dicts)
            value = found.value if found.known else None
            layers.append(
                Layer(origin, label, path, line, True, value, found.known, found.reason, True)
            )
            may_lack_key = bool(found.candidates)
        else:
            layers.append(Layer(origin, label, path, line, False))
    default_line = None
    if inventory is not None and name in _FROM_INVENTORY:
        default_line = inventory.line_of("deployment")
    default_file = inventory_file if default_line else None
    layers.append(
        Layer(
            "default",
            _default_label(name, inventory),
            default_file,
            default_line or None,
            sets=True,
            value=_default_value(name, task, inventory),
            applied=found.origin == "default",
        )
    )
    return FieldTrace(name, found, tuple(layers), may_lack_key)


def _policy_layer(step: PolicyStep, found: Field) -> Layer:
    """A cluster policy's effect on the field: the last level Airflow runs, above the file's."""
    value = step.value
    label = step.hook if step.certain else f"{step.hook}, if its condition holds"
    return Layer(
        step.label,
        label,
        step.site.path,
        step.site.position.line,
        sets=True,
        value=value.value if isinstance(value, Known) else None,
        known=isinstance(value, Known),
        reason=value.reason if isinstance(value, Unresolved) else "",
        applied=step.label == found.origin,
    )


def _keyed(label: str, key: str, name: str) -> str:
    """A level's label, naming the keyword when it is not the field's own (deferral)."""
    return label if key == name else f"{label} ({key})"


def _assignment_label(task: ResolvedTask, name: str) -> str:
    if name in task.task.overridden:
        return f"assigned after construction (.{name} = ...)"
    return "the operator class's own __init__ code"


def _default_label(name: str, inventory: Inventory | None) -> str:
    label = _DEFAULT_LABELS[name]
    if inventory is not None and name == "queue":
        return f"{label}: the inventory's default_queue"
    if inventory is not None and name == "executor":
        return "the default executor: the inventory's first"
    return label


def _default_value(name: str, task: ResolvedTask, inventory: Inventory | None) -> object:
    """What the default level gives: the task's value when it decides, else the level's own."""
    found = task.fields[name]
    if found.origin == "default" and found.known:
        return found.value
    if name == "queue":
        return inventory.default_queue if inventory is not None else DEFAULT_QUEUE
    return _BUILTIN.get(name)


def _provider_why(task: ResolvedTask) -> str:
    if task.provider is None:
        return "no provider: Airflow's core, or a module no table knows"
    if task.task.taskflow is not None:
        kind = task.task.taskflow
        return (
            f"registers the @task.{kind} decorator"
            if kind != "python"
            else ("registers @task (task.python)")
        )
    module = (task.task.operator or "").rpartition(".")[0]
    return f"provides {module}, the operator's module"


def _executor(
    task: ResolvedTask, placed: PlacedTask | None, inventory: Inventory | None
) -> tuple[str | None, str]:
    """The executor the task is sent to, by its name in the deployment, and why."""
    found = task.fields["executor"]
    if not task.dispatched:
        return None, "none: the scheduler marks this task successful without any executor"
    if not found.known:
        candidates = _listing(found.candidates)
        also = f" (one of {candidates})" if candidates else ""
        return None, f"unknown{also}: {found.reason}"
    if placed is None:
        if found.value is None:
            return None, "the default executor (no inventory says which one that is)"
        return None, f"executor={found.value!r} (no inventory to match it against)"
    entry = placed.placement.executor
    configured = ""
    if inventory is not None:
        configured = " (" + ", ".join(each.written for each in inventory.executors) + ")"
    if entry is None:
        return None, (
            f"executor={found.value!r} matches no configured executor{configured}: Airflow "
            "rejects the DAG when it parses it"
        )
    if found.value is None:
        why = f"no level sets executor=, so the first of [core] executor{configured} runs it"
    else:
        how = (
            "alias"
            if found.value == entry.alias
            else ("module path" if found.value == entry.module_path else "class name")
        )
        why = f"executor={found.value!r} matches the configured '{entry.written}' by its {how}"
    if entry.honours_queue is True:
        routing = "it sends the task to the workers subscribed to its queue"
    elif entry.honours_queue is False:
        routing = "it ignores the queue: its workers take every task sent to it"
    else:
        routing = "whether it routes on the queue is not known (a custom executor)"
    return entry.display_name, f"{why}; {routing}"


def _workers(
    task: ResolvedTask, placed: PlacedTask | None, deployment: Deployment | None
) -> tuple[tuple[ServingWorker, ...] | None, str]:
    """The workers that will run the task (the routes table's workers column) and what it
    needs on each; why there are none, or why they cannot be known."""
    if not task.dispatched:
        return (), "none needed: the task never reaches an executor"
    if placed is None:
        return None, "unknown: no inventory says what the deployment runs"
    names = served(placed)
    placement = placed.placement
    if names is None:
        what = "executor" if placement.executor is None else "queue"
        return None, f"unknown: the task's {what} is unresolved"
    workers = [worker for worker in placement.workers if worker.name in names]
    if not workers:
        executor = placement.executor
        if executor is None:
            return (), "none: the executor it names is not configured"
        if executor.honours_queue is True:
            return (), (
                f"none: no {executor.display_name} worker serves queue '{placement.queue}'; "
                "the task will stay queued"
            )
        return (), f"none: the inventory declares no {executor.display_name} worker"
    serving = tuple(_serving(task, worker, deployment) for worker in workers)
    if placement.executor is not None and placement.executor.honours_queue is True:
        why = f"subscribed to queue '{placement.queue}'"
    else:
        why = "every worker of the executor"
    return serving, why


def _serving(task: ResolvedTask, worker: Worker, deployment: Deployment | None) -> ServingWorker:
    if deployment is None:
        return ServingWorker(worker.name, worker.runtime, ())
    runtime = deployment.inventory.runtimes[worker.runtime]
    return ServingWorker(
        worker.name,
        worker.runtime,
        tuple(_needs(task, runtime, deployment)),
        _written(runtime.providers),
        _written(runtime.packages),
    )


def _written(requirements: tuple[Requirement, ...] | None) -> tuple[str, ...] | None:
    return None if requirements is None else tuple(each.written for each in requirements)


def _needs(task: ResolvedTask, runtime: Runtime, deployment: Deployment) -> list[Need]:
    """The providers (DRL202's) and third-party packages (DRL203's) the task needs on a worker,
    each judged against ``runtime`` as those rules judge it."""
    major = deployment.airflow_major
    module = task.module
    found: list[Need] = []
    file_needs = deployment.file_needs(module)
    for need in task_needs(task, file_needs, major):
        has = has_provider(runtime, need.distribution, major)
        found.append(Need("provider", need.distribution, need.why, need.position.line, has))
    sites = list(module.imports)
    if code_runs(task) is CodeRuns.ON_WORKER:
        sites += task.task.imports
    for item in package_imports(sites, deployment.first_party, deployment.off_roots):
        scope = "module-level import" if item.site.scope == "module" else "import in the task"
        why = f"{scope} of '{item.site.module}'"
        has = has_package(runtime, item.need)
        found.append(Need("package", item.need.distribution, why, item.site.position.line, has))
    return found


def _notes(task: ResolvedTask) -> list[str]:
    notes = []
    if not task.task.applies_default_args:
        notes.append(
            "the task is attached to its DAG after it is built: the DAG's and groups' "
            "default_args do not reach it"
        )
    runs = code_runs(task)
    if runs is CodeRuns.IN_VIRTUALENV:
        code = PACKAGE_MISSING_ON_WORKER.code
        notes.append(f"imports inside the task run in its virtualenv, judged by {code} there")
    elif runs is CodeRuns.ELSEWHERE:
        notes.append("the task's own code runs in another interpreter, image or pod")
    reject = next((step for step in task.policy if step.field == "reject"), None)
    if reject is not None:
        raised = reject.value.value if isinstance(reject.value, Known) else "an exception"
        how = "raises" if reject.certain else "may raise"
        notes.append(
            f"{reject.label} {how} {raised} for a task of this DAG: Airflow then drops the "
            "whole DAG, so the task may not exist"
        )
    elif task.task.conditional:
        notes.append("the task is built under a condition the walk could not decide")
    if task.task.mapped:
        notes.append("a mapped task: every map index routes alike")
    return notes


# --- which tasks a target names ------------------------------------------------------------------


def split_target(target: str) -> tuple[str, int] | None:
    """``FILE:LINE`` as its parts, ``None`` for a ``dag_id.task_id``."""
    path, colon, line = target.rpartition(":")
    if colon and path and line.isdigit():
        return path, int(line)
    return None


def matching(repository: Repository, target: str) -> list[ResolvedTask]:
    """The tasks ``target`` names: ``dag_id.task_id`` (the full task id, with its groups), or
    ``FILE:LINE``, the tasks whose call starts on that line of that file."""
    place = split_target(target)
    if place is None:
        return [task for task in repository.tasks if _task_name(task) == target]
    path, line = place
    wanted = _real(path)
    return [
        task
        for file in repository.files
        if file.source.display == path or _real(file.source.real) == wanted
        for task in file.tasks
        if task.task.position.line == line
    ]


def no_match(repository: Repository, target: str) -> str:
    """Why ``target`` names no task, with the closest names there are."""
    place = split_target(target)
    if place is not None:
        path, line = place
        wanted = _real(path)
        files = [
            file
            for file in repository.files
            if file.source.display == path or _real(file.source.real) == wanted
        ]
        if not files:
            return f"no file {path} among the files read"
        lines = sorted({task.task.position.line for file in files for task in file.tasks})
        if not lines:
            return f"no task is built in {path}"
        return f"no task's call starts on line {line} of {path}; tasks start on lines " + (
            ", ".join(str(each) for each in lines)
        )
    names = sorted({name for task in repository.tasks if (name := _task_name(task))})
    close = close_matches(target, names, limit=3)
    if not close:
        dag = target.split(".", 1)[0]
        close = [name for name in names if name.startswith(f"{dag}.")][:5]
    hint = f"; did you mean {_or(close)}?" if close else ""
    return f"no task {target!r} in the files read (dag_id.task_id or FILE:LINE){hint}"


def _task_name(task: ResolvedTask) -> str | None:
    if task.dag_id is None or task.task_id is None:
        return None
    return f"{task.dag_id}.{task.task_id}"


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _shown_path(path: str) -> str:
    """A path as the other outputs show it: relative to the working directory when below it."""
    relative = os.path.relpath(path) if os.path.isabs(path) else path
    return path if relative.startswith("..") else relative


def _or(names: Sequence[str]) -> str:
    quoted = [repr(name) for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _listing(values: Sequence[object]) -> str:
    return ", ".join(_value(value) for value in values)


# --- text ----------------------------------------------------------------------------------------


def _value(value: object) -> str:
    return "None" if value is None else repr(value)


def _layer_value(layer: Layer) -> str:
    """A level's value; the default level's ``None`` says the field is not set, where an
    explicit ``None`` (``queue=None``) is Airflow's own value."""
    return NOT_SET if layer.value is None and layer.origin == "default" else _value(layer.value)


def field_summary(found: FieldTrace) -> str:
    """``'reports', set by the keyword on the call (line 28)``: the value and the level;
    ``not set (the default executor: ...)`` for a field nothing sets."""
    field = found.field
    layer = found.applied
    if found.unset:
        return f"{NOT_SET} ({layer.label})" if layer is not None else NOT_SET
    if field.known:
        value = _value(field.value)
    elif field.candidates:
        value = f"one of {_listing(field.candidates)} (unknown: {field.reason})"
    else:
        value = f"unknown ({field.reason})"
    if layer is None:
        return value
    where = f" (line {layer.line})" if layer.line is not None and layer.origin != "default" else ""
    if _from_policy(layer) and layer.file is not None:
        where = f" ({os.path.basename(layer.file)}:{layer.line})"  # not the task's file
    return f"{value}, set by {layer.label}{where}"


def _from_policy(layer: Layer) -> bool:
    """Whether a cluster policy's hook is the level (``task_policy (FILE:LINE)``)."""
    return layer.origin.split(" ", 1)[0] in (*POLICY_HOOKS, LEGACY_TASK_POLICY)


def _where(layer: Layer) -> str:
    if layer.file is not None and layer.line is not None:
        return f"{layer.file}:{layer.line}"
    return "(built into Airflow)"


def _layer_line(
    layer: Layer,
    widths: tuple[int, int],
    applied_seen: bool,
    candidates: tuple[object, ...],
    may_lack_key: bool,
) -> str:
    if not layer.sets:
        what = "-"
    elif not layer.known:
        what = f"unknown: {layer.reason}"
    else:
        what = _layer_value(layer)
    if layer.sets and not layer.applied:
        what += " (overridden)" if applied_seen else " (does not reach the operator)"
        if applied_seen and may_lack_key and layer.known and layer.value in candidates:
            what = f"{_value(layer.value)} (applies where the levels above lack it)"
    mark = ">" if layer.applied else " "
    return f"  {mark} {layer.label.ljust(widths[0])}  {_where(layer).ljust(widths[1])}  {what}"


def format_trace_text(traces: Sequence[Trace]) -> str:
    return "\n".join(_trace_text(trace) for trace in traces)


def _trace_text(trace: Trace) -> str:
    task = trace.task
    position = task.task.position
    lines = [
        f"{task.label}",
        f"  at {trace.file}:{position.line}:{position.column}",
        f"  operator: {task.operator or 'unknown'}"
        + (
            f" (written {trace.operator_written})"
            if trace.operator_written and trace.operator_written != task.operator
            else ""
        ),
        f"  provider: {task.provider or '-'} ({trace.provider_why})",
        "",
    ]
    for found in trace.fields:
        lines.append(f"{found.name}: {field_summary(found)}")
        widths = (
            max(len(layer.label) for layer in found.layers),
            max(len(_where(layer)) for layer in found.layers),
        )
        applied_seen = False
        for layer in found.layers:
            lines.append(
                _layer_line(layer, widths, applied_seen, found.field.candidates, found.may_lack_key)
            )
            applied_seen = applied_seen or layer.applied
        lines.append("")
    executor = f"executor {trace.executor}: " if trace.executor is not None else ""
    lines.append(f"runs on: {executor}{trace.executor_why}")
    if trace.workers is None or not trace.workers:
        lines.append(f"workers: {trace.workers_why}")
    else:
        lines.append(f"workers ({trace.workers_why}):")
        for worker in trace.workers:
            lines.append(f"  {worker.name} (runtime {worker.runtime}: {_lists(worker)})")
            for need in worker.needs:
                lines.append(
                    f"    {need.kind} {need.name}: {_has(need.has)} ({need.why}, line {need.line})"
                )
    lines.append("unknown:" if trace.unknowns else "unknown: none")
    for unknown in trace.unknowns:
        candidates = f"; candidates: {_listing(unknown.candidates)}" if unknown.candidates else ""
        lines.append(f"  {unknown.name}: {unknown.reason}{candidates}")
    for note in trace.notes:
        lines.append(f"note: {note}")
    return "".join(f"{printable(line)}\n" for line in lines)


def _lists(worker: ServingWorker) -> str:
    """What a runtime lists: ``providers standard, celery; packages pandas>=2``."""
    if worker.providers is None and worker.packages is None and not worker.needs:
        return "not judged"
    shown = []
    for what, items in (("providers", worker.providers), ("packages", worker.packages)):
        listed = "not listed" if items is None else ", ".join(items) or "none"
        shown.append(f"{what} {listed}")
    return "; ".join(shown)


def _has(has: bool | None) -> str:
    if has is None:
        return "not known (the runtime does not list them, or its lists do not prove it)"
    return "has it" if has else "LACKS it"


# --- JSON ----------------------------------------------------------------------------------------


def _json_value(value: object) -> object:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    return repr(value)


def trace_record(trace: Trace) -> dict[str, object]:
    task = trace.task
    position = task.task.position
    return {
        "file": trace.file,
        "line": position.line,
        "column": position.column,
        "dag_id": task.dag_id,
        "task_id": task.task_id,
        "mapped": task.task.mapped,
        "conditional": task.task.conditional,
        "operator": task.operator,
        "operator_written": trace.operator_written,
        "provider": task.provider,
        "provider_why": trace.provider_why,
        "fields": {
            found.name: {
                "value": _json_value(found.field.value),
                "known": found.field.known,
                "reason": found.field.reason,
                "candidates": _json_value(found.field.candidates),
                "set_by": found.field.origin,
                "layers": [
                    {**asdict(layer), "value": _json_value(layer.value) if layer.sets else None}
                    for layer in found.layers
                ],
            }
            for found in trace.fields
        },
        "executor": trace.executor,
        "executor_why": trace.executor_why,
        "workers": None if trace.workers is None else [asdict(w) for w in trace.workers],
        "workers_why": trace.workers_why,
        "unknown": [
            {
                "field": unknown.name,
                "reason": unknown.reason,
                "candidates": _json_value(unknown.candidates),
            }
            for unknown in trace.unknowns
        ],
        "notes": list(trace.notes),
    }


def format_trace_json(traces: Sequence[Trace]) -> str:
    document = {"version": TRACE_VERSION, "traces": [trace_record(trace) for trace in traces]}
    return json.dumps(document, indent=2) + "\n"
