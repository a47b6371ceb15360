"""What a rule is, and what it sees: one file's model, its resolved tasks, the inventory.

A rule declares its code once; its check reports through a context bound to it, so a diagnostic
always carries the code and severity of the rule that found it. Rules that need the deployment
are ``DeploymentRule``s: their context's inventory is never ``None``, because they do not run
without one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import ClassVar, Generic, TypeVar

from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.diagnostics import Diagnostic, ImportFix, Severity
from dagroute_lint.model import Module, Position
from dagroute_lint.records import record
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
        fix: ImportFix | None = None,
        cause: str | None = None,
        tasks: tuple[str, ...] = (),
    ) -> Diagnostic:
        """A diagnostic of this rule at ``position`` of this file; ``cause``: what it shares
        with other reports of the rule (see ``Diagnostic``)."""
        return Diagnostic(
            self.module.path,
            position.line,
            position.column,
            self.code,
            message,
            fix,
            self.severity,
            cause,
            tasks,
        )


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
