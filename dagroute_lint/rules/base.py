"""What a rule is, and what it sees: one module's model, its resolved tasks, the inventory."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Callable, Literal

from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.diagnostics import Diagnostic, ImportFix
from dagroute_lint.model import Module, Position
from dagroute_lint.resolve.placement import Placement, place
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.sources.first_party import no_first_party


@dataclass(frozen=True)
class Context:
    """Everything a rule may look at for one file; never a syntax tree.

    ``first_party`` tells whether a module name is the repository's own (on the import roots).
    """

    module: Module
    tasks: tuple[ResolvedTask, ...]
    inventory: Inventory | None
    airflow_major: int
    first_party: Callable[[str], bool] = no_first_party
    _placements: dict[int, Placement] = field(default_factory=dict, init=False, repr=False)

    def placement(self, task: ResolvedTask) -> Placement:
        """Where ``task`` lands in the inventory's deployment, worked out once for all rules."""
        assert self.inventory is not None, "only rules that need an inventory ask"
        found = self._placements.get(id(task))
        if found is None:
            found = self._placements[id(task)] = place(task, self.inventory)
        return found

    def report(
        self, position: Position, code: str, message: str, fix: ImportFix | None = None
    ) -> Diagnostic:
        return Diagnostic(self.module.path, position.line, position.column, code, message, fix)


Check = Callable[[Context], Iterator[Diagnostic]]


Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
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
    check: Check
    needs_inventory: bool = True
    severity: Severity = "error"
    default_enabled: bool = True
