"""The lint run: each reported file through the selected rules, then ``# noqa``; its results
from the result cache when nothing they read changed.

With a cache, each file whose entry still holds (``pipeline.results``: same bytes, every module
name it read resolving to the same file and content, every question about the import roots
answered alike) is reported from the entry and never analysed. The others are analysed
(``Analysis.analysed``) and linted, recording what they read, so a change to one file
re-resolves that file and the files whose results read it, and nothing else. With nothing
changed no file is extracted and libcst is never imported. Without a cache every file is stale.

Rules judge one file at a time, except DRL002, which compares the DAG ids of the run's files:
each entry keeps the DAGs its file defines and the other files' definitions of the same ids as
they were, so an entry also goes stale when another file starts or stops defining one of its
ids, and a file linted again sees every file's DAGs (those of unchanged files from their entries).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import field

from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.diagnostics import UNUSED_NOQA, Diagnostic, unsuppressed
from dagroute_lint.model import Position
from dagroute_lint.pipeline.analysis import Analysis, Execution, analyse, imported_modules
from dagroute_lint.pipeline.collector import rare_collections
from dagroute_lint.pipeline.import_index import module_reads
from dagroute_lint.pipeline.results import Entry, ResultIndex, canonical, own_key, run_key
from dagroute_lint.pipeline.world import ModuleStates, ProbeAnswers, Reads, ReportedFile
from dagroute_lint.records import record, replace
from dagroute_lint.resolve.coverage import Coverage, coverage
from dagroute_lint.resolve.repository import AnalysedFile, Definition, Repository
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules import AnyRule
from dagroute_lint.rules.open_facts import OPEN_FACT, merged
from dagroute_lint.rules.registry import all_rules
from dagroute_lint.sources.discovery import LeftOut
from dagroute_lint.sources.files import stamp, stamps_below


@record
class Linted:
    """What a lint run found, in output order, how much it saw, and the files it linted only
    because they import a file given."""

    diagnostics: list[Diagnostic]
    coverage: Coverage
    dependents: tuple[str, ...]
    linted: int = 0  # files whose results were worked out (not taken from the cache)


@record
class Report:
    """Every task of a run's files, resolved and placed, and what the rules found (nothing, for
    ``routes``): what the routing table and the deployment acceptance reports read.

    ``repository`` holds every file, analysed; ``left_out`` is what discovery passed over."""

    repository: Repository
    diagnostics: list[Diagnostic]
    left_out: LeftOut = field(default_factory=LeftOut)

    @property
    def tasks(self) -> list[ResolvedTask]:
        return self.repository.tasks

    @property
    def files(self) -> int:
        return len(self.repository.files)

    @property
    def unreadable(self) -> list[AnalysedFile]:
        """The files that could not be read or parsed: their tasks are missing."""
        return [file for file in self.repository.files if file.module.syntax_error is not None]


def selected_rules(settings: Settings) -> list[AnyRule]:
    """The rules ``select`` / ``ignore`` leave on, in registry order."""
    selected = settings.selected_codes()
    return [rule for rule in all_rules() if rule.code in selected]


def run(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    stdin: tuple[str, bytes] | None = None,
    execution: Execution | None = None,
) -> Report:
    """Lint ``paths`` (or one buffer from stdin, named as a file) with the selected rules, and
    keep every file's analysis (for reports that read the tasks too)."""
    with analyse(paths, settings, inventory, stdin, execution) as analysis:
        found = lint(analysis, selected_rules(settings), keep=True)
        repository = analysis.repository
        for _ in repository.files:  # every file, while the extractor is open
            pass
    return Report(repository, found.diagnostics, analysis.left_out)


def lint(analysis: Analysis, rules: Sequence[AnyRule], keep: bool = False) -> Linted:
    """Every diagnostic of ``rules`` on the analysis's files, minus ``per-file-ignores`` and
    ``# noqa``, in output order. ``keep``: leave each file's analysis in the repository (a run
    that reports on the tasks too); otherwise it is dropped once the file is linted (at 5,000
    files the tasks of every file held together were a fifth of the run's memory)."""
    with rare_collections():
        return _Run(analysis, rules, keep).lint()


def lint_file(
    file: AnalysedFile, repository: Repository, rules: Sequence[AnyRule], settings: Settings
) -> list[Diagnostic]:
    """The diagnostics of one file, minus ``per-file-ignores`` and ``# noqa``, unsorted; with
    them, the reports of facts the inventory leaves open (DRL902), which are about the
    inventory, not the file, and which the run merges (``open_facts.merged``)."""
    ignored = settings.ignored_for(file.source.path)
    running = [
        rule for rule in rules if rule.code not in ignored and rule.runs_on(file, repository)
    ]
    found = [d for rule in running for d in rule.diagnostics(file, repository)]
    open_facts = [d for d in found if d.code == OPEN_FACT]
    own = [d for d in found if d.code != OPEN_FACT]
    ran = frozenset(rule.code for rule in running)
    return [
        *unsuppressed(own, file.module, ran, report_unused=UNUSED_NOQA in ran),
        *open_facts,
    ]


class _Run:
    """One lint of an analysis: entries from the result index where they hold, the rest linted."""

    def __init__(self, analysis: Analysis, rules: Sequence[AnyRule], keep: bool) -> None:
        self.analysis = analysis
        self.rules = rules
        self.keep = keep
        self.index = _result_index(analysis, rules)
        self._owns: dict[str, str] = {}

    def lint(self) -> Linted:
        analysis = self.analysis
        index = self.index
        entries = index.load(s.display for s, _ in analysis.files) if index is not None else {}

        def known(file: ReportedFile) -> tuple[Sequence[str], Sequence[str]] | None:
            entry = entries.get(_at(file))
            if entry is None or entry.own != self.own(file):
                return None
            return entry.imported, entry.reads

        reported = analysis.reported(known if index is not None else None)
        names = [file.name for file in reported]
        if index is not None and len(names) != len(set(names)):
            # Two reported files share a module name: which one a look-up finds depends on
            # their order, which an entry cannot record.
            index, entries = None, {}
        if index is None:
            fresh = results = self._lint_every_file(reported)
        else:
            fresh = self._lint_stale(reported, entries)
            if fresh:
                index.store(fresh)
            results = {**entries, **fresh}
        found = merged(d for file in reported for d in results[_at(file)].diagnostics)
        seen = sum((results[_at(file)].coverage for file in reported), Coverage())
        # Counted whether DRL902 is selected or not: a fact assumed away is always said.
        seen = replace(seen, open_facts=sum(1 for d in found if d.code == OPEN_FACT))
        if OPEN_FACT not in {rule.code for rule in self.rules}:
            found = [d for d in found if d.code != OPEN_FACT]
        return Linted(sorted(found), seen, analysis.repository.dependents, len(fresh))

    def own(self, file: ReportedFile) -> str:
        """The key of a file by itself (``results.own_key``), worked out once."""
        display = _at(file)
        if display not in self._owns:
            content = file.data if isinstance(file.data, bytes) else canonical(file.data)
            self._owns[display] = own_key(display, file.name, file.is_package, content)
        return self._owns[display]

    def _lint_every_file(self, reported: Sequence[ReportedFile]) -> dict[str, Entry]:
        """A run without a result index: every file is linted; nothing it read is kept."""
        analysis = self.analysis
        analysis.prepare(reported)
        return {_at(file): self._linted(file, analysis.repository)[0] for file in reported}

    def _lint_stale(
        self, reported: Sequence[ReportedFile], entries: Mapping[str, Entry]
    ) -> dict[str, Entry]:
        """Lint the files whose entries no longer hold, each recording what it read, as new
        entries; with them, the unchanged files whose DAG ids another file now shares or stops
        sharing."""
        analysis = self.analysis
        world = analysis.world
        states = ModuleStates(world.roots, world.reported, self.own, world.contents, world.read)
        now = ProbeAnswers(
            world.roots, world.project, world.deployed.data_roots, analysis.imported_elsewhere
        )
        stale = [f for f in reported if not _holds(entries.get(_at(f)), self.own(f), states, now)]
        linted = {_at(file) for file in stale}
        if stale:
            analysis.prepare(stale)
        dags = {
            _at(f): analysis.certain_dags(f) if _at(f) in linted else _definitions(entries[_at(f)])
            for f in reported
        }
        peers = _Peers(dags)
        clashing = [
            file
            for file in reported
            if _at(file) not in linted and entries[_at(file)].peers != peers(_at(file))
        ]
        if clashing:
            analysis.prepare(clashing)
        repository = replace(analysis.repository, dags=dags)
        fresh: dict[str, Entry] = {}
        for file in (*stale, *clashing):
            found, reads = self._linted(file, repository)
            plain = world.plain(file)
            fresh[_at(file)] = replace(
                found,
                own=self.own(file),
                imported=tuple(imported_modules(plain)),
                reads=tuple(sorted(set(module_reads(plain)))),
                states=tuple((read, states(read)) for read in sorted(reads.names)),
                probes=tuple(sorted(reads.probes.items())),
                dags=tuple((i, p.line, p.column) for i, p in dags[_at(file)]),
                peers=peers(_at(file)),
            )
        return fresh

    def _linted(self, file: ReportedFile, repository: Repository) -> tuple[Entry, Reads]:
        """The file's diagnostics and coverage (as an entry without its keys), and what working
        them out read."""
        analysis = self.analysis
        found, reads = analysis.analysed(file, self.keep)
        with analysis.world.reading_for(reads):
            diagnostics = lint_file(found, repository, self.rules, analysis.settings)
        covered = coverage([(found.module, found.tasks, found.no_dag)])
        return Entry("", (), (), (), tuple(diagnostics), covered), reads


def _at(file: ReportedFile) -> str:
    return file.source.display


def _result_index(analysis: Analysis, rules: Sequence[AnyRule]) -> ResultIndex | None:
    """The result index of this run, when it keeps one: not for a buffer (an editor's text
    changes with each keystroke)."""
    cache_dir = analysis.execution.cache_dir
    if cache_dir is None or analysis.from_stdin:
        return None
    identities = [(rule.code, rule.severity, _origin(rule)) for rule in rules]
    parts = (
        analysis.settings,
        analysis.inventory,
        identities,
        analysis.world.roots,
        os.getcwd(),
        analysis.policy_identity,
    )
    return ResultIndex(cache_dir, run_key(parts))


def _origin(rule: AnyRule) -> str:
    """The code of a rule outside this tool (a plugin's), stamped: every file of the top-level
    package its check is written in. This tool's own rules are covered by ``code_fingerprint``.
    """
    check = getattr(rule.check, "check", rule.check)  # a plugin's check, unwrapped from its guard
    name = getattr(check, "__module__", None) or ""
    top = name.partition(".")[0]
    if top == "dagroute_lint":
        return name
    path = getattr(sys.modules.get(top), "__file__", None)
    if not isinstance(path, str):
        return name
    if os.path.basename(path) != "__init__.py":
        return stamp(path)
    return "\0".join(stamps_below(os.path.dirname(path)))


def _holds(entry: Entry | None, own: str, states: ModuleStates, answers: ProbeAnswers) -> bool:
    """Whether ``entry`` is still the file's result: nothing it was derived from changed."""
    if entry is None or entry.own != own:
        return False
    if any(states(name) != state for name, state in entry.states):
        return False
    return all(answers(question) == answer for question, answer in entry.probes)


def _definitions(entry: Entry) -> tuple[Definition, ...]:
    return tuple((dag_id, Position(line, column)) for dag_id, line, column in entry.dags)


class _Peers:
    """For a file, the other files' definitions of the DAG ids it defines: what DRL002 compares."""

    def __init__(self, dags: Mapping[str, tuple[Definition, ...]]) -> None:
        self._dags = dags
        self._by_id: dict[str, list[tuple[str, Position]]] = {}
        for path, definitions in dags.items():
            for dag_id, position in definitions:
                self._by_id.setdefault(dag_id, []).append((path, position))

    def __call__(self, display: str) -> tuple[tuple[str, str, int, int], ...]:
        own = {dag_id for dag_id, _ in self._dags[display]}
        return tuple(
            sorted(
                (dag_id, path, position.line, position.column)
                for dag_id in own
                for path, position in self._by_id[dag_id]
                if path != display
            )
        )
