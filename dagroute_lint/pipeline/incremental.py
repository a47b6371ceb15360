"""A lint run that takes each file's results from the result cache when nothing they read changed.

The files reported are found as a full run finds them (``pipeline.analysis``); each one whose
entry still holds (``pipeline.results``: same bytes, every module name it read resolving to the
same file and content, every question about the import roots answered alike) is printed from
the entry. The others are linted against lazily built summaries (``pipeline.world``), so a
change to one file re-resolves that file and the files whose results read it, and nothing
else. With nothing changed no file is extracted and libcst is never imported.

Rules judge one file at a time, except DRL002, which compares the DAG ids of the run's files:
each entry keeps the DAGs its file defines and the other files' definitions of the same ids as
they were, so an entry also goes stale when another file starts or stops defining one of its
ids, and a file linted again sees every file's DAGs (those of unchanged files from their entries).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from dagroute_lint.catalog.airflow_defaults import DEFAULT_QUEUE
from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import Position, SyntaxProblem
from dagroute_lint.pipeline.analysis import (
    Execution,
    airflow_major,
    import_roots,
    imported_modules,
    read_reported,
)
from dagroute_lint.pipeline.cache import extraction_fingerprint
from dagroute_lint.pipeline.collector import rare_collections
from dagroute_lint.pipeline.import_index import ImportIndex, index_key
from dagroute_lint.pipeline.results import Entry, ResultIndex, canonical, own_key, run_key
from dagroute_lint.pipeline.runner import lint_file, run, selected_rules
from dagroute_lint.pipeline.world import (
    ModuleStates,
    ProbeAnswers,
    Reads,
    RecordingRoots,
    ReportedFile,
    World,
)
from dagroute_lint.records import record
from dagroute_lint.resolve.coverage import Coverage, coverage
from dagroute_lint.resolve.placement import place_dispatched
from dagroute_lint.resolve.repository import AnalysedFile, Definition, Repository
from dagroute_lint.resolve.tasks import Resolver
from dagroute_lint.resolve.values import SymbolTable
from dagroute_lint.rules import AnyRule
from dagroute_lint.sources.discovery import SourceFile, might_define_dags, module_name
from dagroute_lint.sources.files import stamp, stamps_below


@record
class Linted:
    """What ``check`` prints: the diagnostics in output order, how much was seen, and the files
    linted only because they import a file given."""

    diagnostics: list[Diagnostic]
    coverage: Coverage
    dependents: tuple[str, ...]
    linted: int = 0  # files whose results were worked out (not taken from the cache)


def check(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    stdin: tuple[str, bytes] | None,
    execution: Execution,
) -> Linted:
    """Lint ``paths`` (or one buffer from stdin) with the selected rules: from the result cache
    when the run has one, else in full."""
    if stdin is None and execution.cache_dir is not None:
        rules = selected_rules(settings)
        cache_dir = execution.cache_dir
        found = lint_incrementally(paths, settings, inventory, rules, execution, cache_dir)
        if found is not None:
            return found
    report = run(paths, settings, inventory, stdin, execution)
    repository = report.repository
    return Linted(report.diagnostics, repository.coverage, repository.dependents, report.files)


def lint_incrementally(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    rules: Sequence[AnyRule],
    execution: Execution,
    cache_dir: Path,
) -> Linted | None:
    """The run, with results cached in ``cache_dir``; ``None`` when two reported files share a
    module name (which one a look-up finds depends on order): then the caller runs in full."""
    with rare_collections(), execution.extractor() as extractor:
        roots = import_roots(paths, settings)
        world = World(roots, extractor, {}, settings.max_file_size)
        world.imports = ImportIndex(
            cache_dir, lambda: index_key(extraction_fingerprint(), world.roots)
        )
        files, dependents = read_reported(paths, settings, inventory, world)
        index = ResultIndex(cache_dir, run_key(_run_parts(settings, inventory, rules, world)))
        entries = index.load(source.display for source, _ in files)
        reported = _reported(files, world, entries)
        if reported is None:
            return None
        world.reported.update(reported)
        states = ModuleStates(world.roots, reported, world.contents, world.read)
        now = ProbeAnswers(world.roots)
        ordered = sorted(reported.values(), key=lambda file: file.source.display)
        stale = [f for f in ordered if not _holds(entries.get(f.source.display), f, states, now)]
        # Also with nothing changed: a file that left the run changes what DRL002 compares.
        fresh = _lint_files(
            stale, ordered, entries, world, inventory, rules, settings, dependents, states
        )
        if fresh:
            entries.update(fresh)
            index.store(fresh)
        for module in world.extracted():
            world.imports.learn(module)
        for source, data in files:
            if isinstance(data, bytes):
                world.imports.learn_unextracted(source.display, data)
        world.imports.save()
    found = [d for file in ordered for d in entries[file.source.display].diagnostics]
    seen = sum((entries[file.source.display].coverage for file in ordered), Coverage())
    shown = tuple(source.display for source, _ in dependents)
    return Linted(sorted(found), seen, shown, len(fresh))


def _run_parts(
    settings: Settings, inventory: Inventory | None, rules: Sequence[AnyRule], world: World
) -> tuple[object, ...]:
    """What every result of a run depends on, besides the code and the files."""
    identities = [(rule.code, rule.severity, _origin(rule)) for rule in rules]
    return (settings, inventory, identities, world.roots, os.getcwd())


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


def _reported(
    files: Sequence[tuple[SourceFile, bytes | SyntaxProblem]],
    world: World,
    entries: dict[str, Entry],
) -> dict[str, ReportedFile] | None:
    """The files a full run reports on, by module name (see ``analysis._extract_reported``):
    what a file imports comes from its entry when the file is unchanged, else from its summary.
    """
    names = {source.real: module_name(source.real, world.roots) for source, _ in files}
    waiting: dict[str, tuple[SourceFile, bytes | SyntaxProblem]] = {}
    batch: list[tuple[SourceFile, bytes | SyntaxProblem]] = []
    for source, data in files:
        if source.named or not isinstance(data, bytes) or might_define_dags(data):
            batch.append((source, data))
        else:
            waiting.setdefault(names[source.real][0], (source, data))
    found: dict[str, ReportedFile] = {}
    while batch:
        known: list[ReportedFile] = []
        for source, data in batch:
            name, is_package = names[source.real]
            content = data if isinstance(data, bytes) else canonical(data)
            own = own_key(source.display, name, is_package, content)
            file = ReportedFile(source, data, own, name, is_package)
            if name in found:
                return None
            found[name] = file
            known.append(file)
        imports = _imports(known, world, entries)
        batch = [waiting.pop(name) for name in imports if name in waiting]
    return found


def _imports(files: Sequence[ReportedFile], world: World, entries: dict[str, Entry]) -> list[str]:
    """Every module the files run by importing, in file order: from entries that hold for the
    file's bytes, else from the summaries (extracted as one batch)."""
    unknown = [f for f in files if (e := entries.get(f.source.display)) is None or e.own != f.own]
    world.reported.update({file.name: file for file in unknown})
    world.prepare(unknown)
    names: list[str] = []
    for file in files:
        entry = entries.get(file.source.display)
        if entry is not None and entry.own == file.own:
            names += entry.imported
        else:
            module = world.lookup(file.name)
            names += imported_modules(module) if module is not None else ()
    return names


def _holds(
    entry: Entry | None, file: ReportedFile, states: ModuleStates, answers: ProbeAnswers
) -> bool:
    """Whether ``entry`` is still the file's result: nothing it was derived from changed."""
    if entry is None or entry.own != file.own:
        return False
    if any(states(name) != state for name, state in entry.states):
        return False
    return all(answers(question) == answer for question, answer in entry.probes)


def _lint_files(
    stale: Sequence[ReportedFile],
    ordered: Sequence[ReportedFile],
    entries: dict[str, Entry],
    world: World,
    inventory: Inventory | None,
    rules: Sequence[AnyRule],
    settings: Settings,
    dependents: Sequence[tuple[SourceFile, object]],
    states: ModuleStates,
) -> dict[str, Entry]:
    """Lint the ``stale`` files against the world, each recording what it read, as new entries;
    with them, the unchanged files whose DAG ids another file now shares or stops sharing."""
    major = airflow_major(inventory)
    if stale:
        world.prepare_final(stale)
    linted = {file.source.display for file in stale}
    dags = {
        file.source.display: (
            _certain_dags(file, world, major)
            if file.source.display in linted
            else _definitions(entries[file.source.display])
        )
        for file in ordered
    }
    peers = _Peers(dags)
    clashing = [
        file
        for file in ordered
        if file.source.display not in linted
        and entries[file.source.display].peers != peers(file.source.display)
    ]
    if not linted and not clashing:
        return {}
    if clashing:
        world.prepare_final(clashing)
    roots = RecordingRoots(world.roots, world)
    repository = Repository(
        (),
        inventory,
        major,
        roots,
        tuple(source.display for source, _ in dependents),
        lookup=world.final,
        locations=roots,
        dags=dags,
    )
    fresh: dict[str, Entry] = {}
    # One file at a time, its resolved tasks dropped once its entry is made: at 5,000 files the
    # tasks of every file held together were a fifth of the run's memory.
    for file in (*stale, *clashing):
        found, reads = _analyse(file, world, inventory, major)
        with world.reading_for(reads):
            diagnostics = lint_file(found, repository, rules, settings)
        plain = world.lookup(file.name)
        fresh[file.source.display] = Entry(
            own=file.own,
            imported=tuple(imported_modules(plain)) if plain is not None else (),
            states=tuple((read, states(read)) for read in sorted(reads.names)),
            probes=tuple(sorted(reads.probes.items())),
            diagnostics=tuple(diagnostics),
            coverage=coverage([(found.module, found.tasks)]),
            dags=tuple((i, p.line, p.column) for i, p in dags[file.source.display]),
            peers=peers(file.source.display),
        )
    return fresh


def _analyse(
    file: ReportedFile, world: World, inventory: Inventory | None, major: int
) -> tuple[AnalysedFile, Reads]:
    """The file's model and resolved tasks, with what working them out read."""
    default_queue = inventory.default_queue if inventory is not None else DEFAULT_QUEUE
    with world.reading_for(Reads()) as reads:
        module = world.final(file.name)
        assert module is not None  # a reported name always has its file's summary
        # Memos of a resolver span the files it resolves: one per file keeps reads apart.
        resolver = Resolver(SymbolTable(world.final), default_queue, major)
        tasks = tuple(resolver.tasks(module))
        placed = place_dispatched(tasks, inventory) if inventory is not None else ()
        dag_ids = tuple(resolver.dag_ids(module))
    return AnalysedFile(file.source, module, tasks, placed, dag_ids), reads


def _certain_dags(file: ReportedFile, world: World, major: int) -> tuple[Definition, ...]:
    """The DAGs of a file that another file's DAG id can clash with (DRL002), found before any
    file is linted: only their ids are resolved here, the tasks when the file is linted."""
    module = world.final(file.name)
    assert module is not None  # a reported name always has its file's summary
    dag_ids = tuple(Resolver(SymbolTable(world.final), DEFAULT_QUEUE, major).dag_ids(module))
    return AnalysedFile(file.source, module, (), (), dag_ids).certain_dags()


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
