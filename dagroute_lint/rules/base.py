"""What a rule is, and what it sees: one file's model, its resolved tasks, the inventory.

A rule declares its code once; its check reports through a context bound to it, so a diagnostic
always carries the code of the rule that found it, its severity (the rule's, unless the report
names this finding's own), and the facts the rule words its message with (``Diagnostic.facts``:
what readers of diagnostics read instead of the message).
Rules that need the deployment are ``DeploymentRule``s: their context's inventory is never
``None``, because they do not run without one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import ClassVar, Generic, TypeVar

from dagroute_lint.deployment.inventory import Inventory, Worker
from dagroute_lint.diagnostics import Diagnostic, Facts, Fix, Kind, Related, Severity, TaskKey
from dagroute_lint.model import Module, Position
from dagroute_lint.records import record
from dagroute_lint.resolve.origins import policy_step, set_elsewhere, where_phrase
from dagroute_lint.resolve.placement import PlacedTask
from dagroute_lint.resolve.repository import AnalysedFile, Repository
from dagroute_lint.resolve.tasks import ResolvedTask


@record
class _Bound:
    """One file of the repository, seen by one rule; never a syntax tree."""

    file: AnalysedFile
    repository: Repository
    code: str
    severity: Severity

    @property
    def module(self) -> Module:
        return self.file.module

    @property
    def tasks(self) -> tuple[ResolvedTask, ...]:
        return self.file.tasks

    @property
    def airflow_major(self) -> int:
        return self.repository.airflow_major

    def first_party(self, module: str) -> bool:
        """Whether ``module`` is the repository's own (found on the import roots)."""
        return self.repository.first_party(module)

    def report(
        self,
        position: Position,
        message: str,
        *,
        kind: Kind = "other",
        item: str | None = None,
        task: ResolvedTask | None = None,
        tasks: Sequence[ResolvedTask] = (),
        dag_id: str | None = None,
        workers: Iterable[Worker] = (),
        runtime: str | None = None,
        fix: Fix | None = None,
        cause: str | None = None,
        routing: Sequence[str] = (),
        related: tuple[Related, ...] = (),
        severity: Severity | None = None,
    ) -> Diagnostic:
        """A diagnostic of this rule at ``position`` of this file, with its facts: the rule
        passes the values it words the message with (see ``Facts``). ``task`` is the one task
        it is about, ``tasks`` the several one cause breaks; ``dag_id`` the DAG of a report
        about a DAG. ``cause``: what it shares with other reports of the rule (see
        ``Diagnostic``). ``routing``: the routing fields of ``task`` whose values the report
        is about; where another level than the call set one, the diagnostic points there too
        (``Diagnostic.related``). ``related``: other places the rule points at itself.
        ``severity``: this finding's, where a rule's findings differ (DRL204: an import that
        fails is an error, one that only warns a warning); else the rule's."""
        # Most reports are about one task and name no worker: that path builds no generator.
        task_id = None
        if task is not None:
            keys: tuple[TaskKey, ...] = ((task.dag_id, task.task_id),)
        else:
            keys = tuple((one.dag_id, one.task_id) for one in tasks)
        if len(keys) == 1:
            task_id = keys[0][1]
            dag_id = keys[0][0] if dag_id is None else dag_id
        elif dag_id is None and keys and all(key[0] == keys[0][0] for key in keys):
            dag_id = keys[0][0]
        lacking = tuple(dict.fromkeys((w.name, w.runtime) for w in workers)) if workers else ()
        facts = Facts(kind, item, dag_id, task_id, keys, lacking, runtime)
        return Diagnostic(
            self.module.path,
            position.line,
            position.column,
            self.code,
            message,
            fix,
            self.severity if severity is None else severity,
            cause,
            facts,
            related
            + (_related(self.module.path, task, routing, position) if task and routing else ()),
        )


def _related(
    path: str, task: ResolvedTask, names: Sequence[str], at: Position
) -> tuple[Related, ...]:
    """Where the levels that set ``names`` of ``task`` are written, away from ``at``."""
    found: list[Related] = []
    for name in names:
        field = task.fields[name]
        value = f" {field.value!r}" if field.known else ""
        step = policy_step(task, name)
        if step is not None:
            line = step.site.position.line
            message = f"{name}{value} set here, by the cluster policy's {step.hook}"
            found.append(Related(step.site.path, line, 1, message))
            continue
        where = set_elsewhere(task, name, at)
        if where is None:
            continue
        origin, position = where
        message = f"{name}{value} set here, {where_phrase(task, origin)}"
        found.append(Related(path, position.line, position.column, message))
    return tuple(found)


@record
class Context(_Bound):
    """What a rule that needs no deployment sees; ``inventory`` is there when one was given."""

    inventory: Inventory | None


@record
class DeploymentContext(_Bound):
    """What a rule about the deployment sees: always an inventory, and every dispatched task of
    the file with its placement, worked out once by the pipeline for all rules."""

    inventory: Inventory

    @property
    def placed(self) -> tuple[PlacedTask, ...]:
        return self.file.placed


C = TypeVar("C", Context, DeploymentContext)


@record
class _Spec(Generic[C]):
    """A rule: stable code, kebab-case name, the boundary it guards, and its check.

    ``severity`` is what code-scanning tools show: "error" for a task that will fail,
    "warning" where the failure is possible but unproven. ``default_enabled`` is false for
    opt-in rules, whose findings are advice rather than a certain failure: they run only when a
    selector names them.
    """

    code: str
    name: str
    summary: str
    boundary: str
    check: Callable[[C], Iterator[Diagnostic]]
    severity: Severity = "error"
    default_enabled: bool = True


@record
class Rule(_Spec[Context]):
    """A rule that needs no inventory: it runs on every file, unreadable ones included."""

    needs_inventory: ClassVar[bool] = False

    def runs_on(self, file: AnalysedFile, repository: Repository) -> bool:
        del file, repository
        return True

    def diagnostics(self, file: AnalysedFile, repository: Repository) -> Iterator[Diagnostic]:
        context = Context(file, repository, self.code, self.severity, repository.inventory)
        return self.check(context)


@record
class DeploymentRule(_Spec[DeploymentContext]):
    """A rule about the deployment: it runs only with an inventory, on files that parsed."""

    needs_inventory: ClassVar[bool] = True

    def runs_on(self, file: AnalysedFile, repository: Repository) -> bool:
        return repository.inventory is not None and file.module.syntax_error is None

    def diagnostics(self, file: AnalysedFile, repository: Repository) -> Iterator[Diagnostic]:
        inventory = repository.inventory
        if inventory is None or file.module.syntax_error is not None:
            return iter(())
        return self.check(DeploymentContext(file, repository, self.code, self.severity, inventory))


AnyRule = Rule | DeploymentRule
RULE_TYPES = (Rule, DeploymentRule)
