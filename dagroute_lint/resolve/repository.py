"""The analysed repository: every reported file's model, its resolved tasks, each placed once."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import Any

from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.model import Module, Position
from dagroute_lint.records import record
from dagroute_lint.resolve.coverage import Coverage, NoDag, coverage
from dagroute_lint.resolve.placement import PlacedTask
from dagroute_lint.resolve.policies import SettingsPolicy
from dagroute_lint.resolve.tasks import IdClash, ResolvedTask, Setting
from dagroute_lint.sources.discovery import SourceFile
from dagroute_lint.sources.first_party import FirstParty


@record
class AnalysedFile:
    """One reported file: its model, its resolved tasks, and, with an inventory, where each
    dispatched task lands (``placed``; empty without an inventory). ``dag_ids`` are the ids of
    ``module.dags``, one each, ``None`` where it cannot be known; ``dag_arguments`` the keywords
    each is built with, folded (``None`` for a DAG a repository subclass builds);
    ``id_clashes`` the task groups and tasks whose id their DAG already uses (DRL003);
    ``no_dag`` is set for a file that Airflow's DAG processor imports (a file of the DAG
    folders whose text holds "airflow" and "dag") in which no DAG is found and which no other
    file of the run imports: it may define DAGs that are not seen (DRL106)."""

    source: SourceFile
    module: Module
    tasks: tuple[ResolvedTask, ...]
    placed: tuple[PlacedTask, ...] = ()
    dag_ids: tuple[str | None, ...] = ()
    dag_arguments: tuple[tuple[Setting, ...] | None, ...] = ()
    id_clashes: tuple[IdClash, ...] = ()
    no_dag: NoDag | None = None

    def certain_dags(self) -> tuple[Definition, ...]:
        """The DAGs of the file that Airflow certainly collects, with a known id: the ones
        that can clash with another DAG of the same id."""
        return tuple(
            (dag_id, dag.position)
            for dag, dag_id in zip(self.module.dags, self.dag_ids)
            if dag_id is not None and dag.registered and not dag.conditional
        )


# A DAG's id and where it is built.
Definition = tuple[str, Position]


def _no_module(name: str) -> Module | None:
    """For a repository analysed without an index of its modules."""
    return None


@record
class Repository:
    """What rules and formatters read: the files to report on, in display order, and what they
    were analysed under. In a run, ``files`` are analysed as they are first asked for
    (``pipeline.analysis``).

    ``first_party`` tells whether a module name is the repository's own (on the import roots).
    ``dependents`` are the files reported only because they import a file that was named (as
    pre-commit names the changed files), shown as in diagnostics. ``lookup`` finds the model of a
    repository module by name, reported or not (``None`` for any other), and ``locations``
    answers where on (or off) the import roots a module lies. ``derived`` keeps what several
    rules derive from one file, worked out once (see ``derive``). ``dags`` holds the certain DAG
    definitions of every file of the run, by display path (a lint run takes those of files whose
    results are cached from their entries); rules that compare files read it through
    ``all_dags``. ``policy`` is the cluster policy every task's routing went through
    (``None``: no ``airflow_local_settings`` was found, or it defines no hook).
    """

    files: Sequence[AnalysedFile]
    inventory: Inventory | None
    airflow_major: int
    first_party: Callable[[str], bool]
    dependents: tuple[str, ...] = ()
    lookup: Callable[[str], Module | None] = _no_module
    locations: FirstParty | None = None
    derived: dict[tuple[str, str], Any] = field(default_factory=dict, compare=False, repr=False)
    dags: Mapping[str, tuple[Definition, ...]] | None = None
    policy: SettingsPolicy | None = None

    def all_dags(self) -> Mapping[str, tuple[Definition, ...]]:
        """The certain DAG definitions of every file of the run, by display path."""
        if self.dags is not None:
            return self.dags
        return {file.source.display: file.certain_dags() for file in self.files}

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
        return coverage((file.module, file.tasks, file.no_dag) for file in self.files)

    def derive(self, what: str, file: AnalysedFile, compute: Callable[[], Any]) -> Any:
        """``compute()`` for ``file``, once per run: several rules judge the same facts of a
        file (why it fails to load, for one), and each fact depends only on the file and the
        repository."""
        key = (what, file.source.display)
        if key not in self.derived:
            self.derived[key] = compute()
        return self.derived[key]
