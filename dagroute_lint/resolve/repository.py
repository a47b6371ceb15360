"""The analysed repository: every reported file's model, its resolved tasks, each placed once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.model import Module
from dagroute_lint.resolve.coverage import Coverage, coverage
from dagroute_lint.resolve.placement import PlacedTask
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.sources.discovery import SourceFile
from dagroute_lint.sources.first_party import FirstParty


@dataclass(frozen=True)
class AnalysedFile:
    """One reported file: its model, its resolved tasks, and, with an inventory, where each
    dispatched task lands (``placed``; empty without an inventory). ``dag_ids`` are the ids of
    ``module.dags``, one each, ``None`` where it cannot be known."""

    source: SourceFile
    module: Module
    tasks: tuple[ResolvedTask, ...]
    placed: tuple[PlacedTask, ...] = ()
    dag_ids: tuple[str | None, ...] = ()


def _no_module(name: str) -> Module | None:
    """For a repository analysed without an index of its modules."""
    return None


@dataclass(frozen=True)
class Repository:
    """What every front end starts from: the files to report on, in display order, and what they
    were analysed under.

    ``first_party`` tells whether a module name is the repository's own (on the import roots).
    ``dependents`` are the files reported only because they import a file that was named (as
    pre-commit names the changed files), shown as in diagnostics. ``lookup`` finds the model of a
    repository module by name, reported or not (``None`` for any other), and ``locations``
    answers where on (or off) the import roots a module lies. ``derived`` keeps what several
    rules derive from one file, worked out once (see ``derive``).
    """

    files: tuple[AnalysedFile, ...]
    inventory: Inventory | None
    airflow_major: int
    first_party: Callable[[str], bool]
    dependents: tuple[str, ...] = ()
    lookup: Callable[[str], Module | None] = _no_module
    locations: FirstParty | None = None
    derived: dict[tuple[str, str], Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def tasks(self) -> list[ResolvedTask]:
        """Every resolved task, file by file."""
        return [task for file in self.files for task in file.tasks]

    @property
    def placed(self) -> list[PlacedTask]:
        """Every dispatched task with its placement (none without an inventory)."""
        return [placed for file in self.files for placed in file.placed]

    @property
    def coverage(self) -> Coverage:
        """Tasks and DAGs seen, and places where tasks may be missing (DRL106's, selected or
        not): what every summary says, so that a clean result never hides what was not seen."""
        return coverage((file.module, file.tasks) for file in self.files)

    def derive(self, what: str, file: AnalysedFile, compute: Callable[[], Any]) -> Any:
        """``compute()`` for ``file``, once per run: several rules judge the same facts of a
        file (why it fails to load, for one), and each fact depends only on the file and the
        repository."""
        key = (what, file.source.display)
        if key not in self.derived:
            self.derived[key] = compute()
        return self.derived[key]
