"""The analysis every front end starts from: discover → read → extract → resolve → place.

``analyse()`` finds and reads the files a run reports on and returns an ``Analysis``: the
repository those files make, each file extracted, resolved and placed when first asked for. A
run that lints only a few files (pre-commit), or takes most results from the result cache
(``pipeline.runner``), extracts only what those files reach; ``routes`` asks for every file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import overload

from dagroute_lint.catalog.airflow_defaults import DEFAULT_AIRFLOW_MAJOR, DEFAULT_QUEUE
from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.model import Module, SyntaxProblem
from dagroute_lint.pipeline.cache import SummaryCache, extraction_fingerprint
from dagroute_lint.pipeline.collector import rare_collections
from dagroute_lint.pipeline.dependents import importers
from dagroute_lint.pipeline.extraction import Deployed, Extractor
from dagroute_lint.pipeline.import_index import (
    ImportIndex,
    imports_nothing,
    index_key,
    module_reads,
)
from dagroute_lint.pipeline.local_settings import read_policy, settings_file
from dagroute_lint.pipeline.progress import ProgressLine
from dagroute_lint.pipeline.world import Reads, RecordingRoots, ReportedFile, World
from dagroute_lint.records import record
from dagroute_lint.resolve.coverage import NoDag
from dagroute_lint.resolve.placement import place_dispatched
from dagroute_lint.resolve.repository import AnalysedFile, Definition, Repository
from dagroute_lint.resolve.tasks import Resolver
from dagroute_lint.resolve.values import SymbolTable
from dagroute_lint.sources.discovery import (
    LeftOut,
    SourceFile,
    absolute,
    code_names,
    cwd_relative,
    discover,
    might_define_dags,
    module_name,
    module_names,
    processor_word,
)
from dagroute_lint.sources.project_modules import ProjectModules

# A file found, with its bytes or why it cannot be read.
FoundFile = tuple[SourceFile, bytes | SyntaxProblem]
# What a reported file imports, when known without extracting it (``None``): the modules
# loading it runs, and every module name its imports may load (``import_index.module_reads``).
KnownImports = Callable[[ReportedFile], tuple[Sequence[str], Sequence[str]] | None]
# For each module name a reported file's imports may load, the file importing it (by the name
# shown), or ``None`` when several do.
Importers = dict[str, str | None]


@record
class Execution:
    """How a run does its work; the output never depends on any of it.

    ``jobs`` worker processes extract files, ``cache_dir`` keeps summaries, results and import
    lists between runs (``None``: no cache), and ``progress`` is told of every file extracted.
    """

    jobs: int = 1
    cache_dir: Path | None = None
    progress: ProgressLine | None = None

    def extractor(self) -> Extractor:
        cache = SummaryCache(self.cache_dir) if self.cache_dir is not None else None
        return Extractor(self.jobs, cache, self.progress)


def analyse(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    stdin: tuple[str, bytes] | None = None,
    execution: Execution | None = None,
) -> Analysis:
    """The analysis of ``paths`` (or of one buffer from stdin, named as a file) under one
    project's ``settings`` and ``inventory``; close it (or use it as a context manager) to
    write its caches and end its worker processes."""
    execution = execution or Execution()
    roots = import_roots([stdin[0]] if stdin else paths, settings)
    project = ProjectModules(settings.root, settings.excludes(), settings.skip_folders)
    deployed = Deployed(
        inventory.airflow_version if inventory is not None else None,
        # DAG files read data files from the repository and the import roots
        tuple(dict.fromkeys(str(absolute(root)) for root in (settings.root, *roots))),
        inventory.parse_environment if inventory is not None else None,
    )
    world = World(
        roots, execution.extractor(), settings.max_file_size, project=project, deployed=deployed
    )
    if execution.cache_dir is not None:
        # What a file imports follows what the deployment tells extraction too (a version
        # flag, ``if os.getenv(...): import x``).
        world.imports = ImportIndex(
            execution.cache_dir,
            lambda: index_key(
                extraction_fingerprint() + deployed.key(), world.roots, deployed.airflow_version
            ),
        )
    left_out = LeftOut()
    dependents: list[FoundFile] = []
    with rare_collections():
        if stdin is not None:
            files = _buffer(stdin, settings, inventory, left_out)
        else:
            files, dependents = read_reported(paths, settings, inventory, world, left_out)
    return Analysis(world, files, dependents, settings, inventory, execution, stdin, left_out)


class Analysis:
    """One run's files and the repository they make, analysed as they are asked for.

    ``repository`` is what rules and formatters read; its files are resolved when first asked
    for (every one, for ``routes``), and kept. ``analysed`` resolves one file, recording what
    it read, for the lint run (``pipeline.runner``), which keeps nothing it has reported on.
    """

    def __init__(
        self,
        world: World,
        files: Sequence[FoundFile],
        dependents: Sequence[FoundFile],
        settings: Settings,
        inventory: Inventory | None,
        execution: Execution,
        stdin: tuple[str, bytes] | None = None,
        left_out: LeftOut | None = None,
    ) -> None:
        self.world = world
        self.files = files
        self.settings = settings
        self.inventory = inventory
        self.execution = execution
        self.from_stdin = stdin is not None  # a buffer: its results are never cached
        self.left_out = left_out or LeftOut()  # what discovery passed over, and why
        self.airflow_major = airflow_major(inventory)
        self.default_queue = inventory.default_queue if inventory is not None else DEFAULT_QUEUE
        # The cluster policy every task's routing goes through, and what the results depend on.
        self.policy, self.policy_identity = read_policy(settings_file(settings, inventory), world)
        self._reported: list[ReportedFile] | None = None
        self._importers: Importers = {}
        # The repository's files, by the name shown, with what analysing them read.
        self._kept: dict[str, tuple[AnalysedFile, Reads]] = {}
        self._closed = False
        self.roots = RecordingRoots(world)
        self.repository = Repository(
            _LazyFiles(self),
            inventory,
            self.airflow_major,
            self.roots,
            tuple(source.display for source, _ in dependents),
            lookup=world.final,
            locations=self.roots,
            dags=_LazyDags(self),
            policy=self.policy,
        )

    def __enter__(self) -> Analysis:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Write what this run learnt to the caches and end the worker processes. Files asked
        for afterwards are still analysed, in this process."""
        if self._closed:
            return
        self._closed = True
        imports = self.world.imports
        if imports is not None:
            for module in self.world.extracted():
                imports.learn(module)
            for source, data in self.files:
                if isinstance(data, bytes):
                    imports.learn_unextracted(source.display, data)
            imports.save()
        self.world.extractor.close()

    def read_files(self) -> frozenset[Path]:
        """Every file the run read, as absolute paths: the files found and the modules they
        looked up (those a cached result was checked against included). Their real paths
        are resolved already (discovery and module look-up resolve links)."""
        found = {source.real for source, _ in self.files} | self.world.real_paths
        return frozenset(map(Path, found))

    def reported(self, known: KnownImports | None = None) -> list[ReportedFile]:
        """The files the run reports on, in display order: every file found that may define a
        DAG or was named, and the files found elsewhere that one of those imports (the DAG
        processor runs them too, so their problems are the importer's problems).

        ``known`` tells what an unchanged file imports without extracting it; the answer is
        the same with or without it, and is worked out once.
        """
        if self._reported is None:
            with rare_collections():
                found = _reported(self.files, self.world, known or _unknown)
                self._reported, self._importers = found
        return self._reported

    def imported_elsewhere(self, display: str, *names: str) -> bool:
        """Whether another reported file than ``display`` imports it by one of its ``names``
        (``module_names``): a module of the repository that DAG files import."""
        self.reported()
        return any(self._importers.get(name, display) != display for name in names)

    def passed_over(self) -> LeftOut:
        """What discovery passed over, and the files found that the run does not report on
        because they mention neither "airflow" nor "dag": what a run that reports on no file
        says."""
        reported = {file.source.real for file in self.reported()}
        skipped = sum(1 for source, _ in self.files if source.real not in reported)
        return self.left_out + LeftOut(not_dag_files=skipped)

    def analysed(self, file: ReportedFile, keep: bool = False) -> tuple[AnalysedFile, Reads]:
        """The file's model, resolved tasks and placements, with what working them out read;
        ``keep``: as the repository's file (a file kept is never analysed again)."""
        kept = self._kept.get(file.source.display)
        if kept is not None:
            return kept
        found = self._analysed(file)
        if keep:
            self._kept[file.source.display] = found
        return found

    def _analysed(self, file: ReportedFile) -> tuple[AnalysedFile, Reads]:
        world = self.world
        with world.reading_for(Reads()) as reads:
            module = world.final_of(file)
            # Memos of a resolver span the files it resolves: one per file keeps reads apart.
            resolver = Resolver(
                SymbolTable(world.final), self.default_queue, self.airflow_major, self.policy
            )
            tasks = tuple(resolver.tasks(module))
            inventory = self.inventory
            placed = place_dispatched(tasks, inventory) if inventory is not None else ()
            dag_ids = tuple(resolver.dag_ids(module))
            dag_arguments = tuple(resolver.dag_arguments(module))
            clashes = tuple(resolver.id_clashes(module, tasks))
            no_dag = self._parsed_without_dag(file, module)
        found = AnalysedFile(
            file.source, module, tasks, placed, dag_ids, dag_arguments, clashes, no_dag
        )
        return found, reads

    def _parsed_without_dag(self, file: ReportedFile, module: Module) -> NoDag | None:
        """Why the DAG processor imports ``file`` when no DAG is found in it and no other file
        of the run imports it (``AnalysedFile.no_dag``); ``None`` otherwise. A buffer is not
        judged: who imports it is not looked for. A file the walk followed to its end whose
        code names neither "airflow" nor the word (``code_names``) is known to define none."""
        data = file.data
        if module.dags or module.syntax_error is not None or not isinstance(data, bytes):
            return None
        folders = self.settings.dags
        real = Path(file.source.real)
        if self.from_stdin or (folders and not any(real.is_relative_to(f) for f in folders)):
            return None
        word = processor_word(data, self.airflow_major)
        if word is None:
            return None
        if module.no_dag_cause is None and not code_names(data, ("airflow", word)):
            return None  # only its strings and comments name them: it cannot build a DAG
        question = (file.source.display, *module_names(file.source.real, self.world.roots))
        imported = self.imported_elsewhere(*question)
        if self.world.probe(("imported", *question), imported):
            return None
        return NoDag(word, bool(folders))

    def certain_dags(self, file: ReportedFile) -> tuple[Definition, ...]:
        """The DAGs of a file that another file's DAG id can clash with (DRL002): only their
        ids are resolved, which is all a file whose results are cached needs."""
        module = self.world.final_of(file)
        resolver = Resolver(SymbolTable(self.world.final), DEFAULT_QUEUE, self.airflow_major)
        dag_ids = tuple(resolver.dag_ids(module))
        return AnalysedFile(file.source, module, (), (), dag_ids).certain_dags()

    def file(self, file: ReportedFile) -> AnalysedFile:
        """The repository's analysis of a reported file: worked out once, then kept."""
        return self.analysed(file, keep=True)[0]

    def prepare(self, files: Sequence[ReportedFile]) -> None:
        """Extract these files' final summaries as one batch (in parallel when it is large)."""
        with rare_collections():
            self.world.prepare_final(files)


def _unknown(file: ReportedFile) -> None:
    return None


class _LazyFiles(Sequence[AnalysedFile]):
    """The repository's files, each analysed when first asked for and kept."""

    def __init__(self, analysis: Analysis) -> None:
        self._analysis = analysis

    def __len__(self) -> int:
        return len(self._analysis.reported())

    @overload
    def __getitem__(self, index: int) -> AnalysedFile: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[AnalysedFile]: ...

    def __getitem__(self, index: int | slice) -> AnalysedFile | Sequence[AnalysedFile]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        return self._analysis.file(self._analysis.reported()[index])

    def __iter__(self) -> Iterator[AnalysedFile]:
        self._analysis.prepare(self._analysis.reported())
        return (self[i] for i in range(len(self)))


class _LazyDags(Mapping[str, tuple[Definition, ...]]):
    """Every reported file's certain DAG definitions, by display path, worked out when first
    asked for (only DRL002 compares files)."""

    def __init__(self, analysis: Analysis) -> None:
        self._analysis = analysis
        self._found: dict[str, tuple[Definition, ...]] | None = None

    def _all(self) -> dict[str, tuple[Definition, ...]]:
        if self._found is None:
            analysis = self._analysis
            reported = analysis.reported()
            analysis.prepare(reported)
            # Read for every file at once: not what the file being linted read.
            with analysis.world.reading_for(Reads()):
                self._found = {
                    file.source.display: analysis.certain_dags(file) for file in reported
                }
        return self._found

    def __getitem__(self, display: str) -> tuple[Definition, ...]:
        return self._all()[display]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def _buffer(
    stdin: tuple[str, bytes], settings: Settings, inventory: Inventory | None, left_out: LeftOut
) -> list[FoundFile]:
    """The one file of a run over a buffer, named as a file: none when that file, named on the
    command line, would be left out (``.airflowignore``, and with ``force-exclude`` the
    excludes and git's ignores)."""
    display, data = stdin
    found = _discover([display], settings, inventory, left_out)
    return [(found[0], data)] if found else []


def _discover(
    paths: Sequence[str], settings: Settings, inventory: Inventory | None, left_out: LeftOut
) -> list[SourceFile]:
    return discover(
        paths,
        settings.excludes(),
        settings.dags,
        ignore_syntax(settings, inventory),
        force_exclude=settings.force_exclude,
        respect_gitignore=settings.respect_gitignore,
        root=settings.root,
        skip=settings.skip_folders,
        left_out=left_out,
    )


def _reported(
    files: Sequence[FoundFile], world: World, known: KnownImports
) -> tuple[list[ReportedFile], Importers]:
    """See ``Analysis.reported``: a file found in a folder that cannot define a DAG waits until
    a reported file imports it. With them, who imports what (``Importers``)."""
    waiting: dict[str, FoundFile] = {}
    batch: list[FoundFile] = []
    for source, data in files:
        if source.named or not isinstance(data, bytes) or might_define_dags(data):
            batch.append((source, data))
        else:
            waiting.setdefault(module_name(source.real, world.roots)[0], (source, data))
    found: list[ReportedFile] = []
    importers: Importers = {}
    while batch:
        made = [
            ReportedFile(source, data, *module_name(source.real, world.roots))
            for source, data in batch
        ]
        for file in made:
            world.report(file)
        answers = [known(file) for file in made]
        world.prepare([file for file, answer in zip(made, answers) if answer is None])
        imported: list[str] = []
        for file, answer in zip(made, answers):
            if answer is None:
                plain = world.plain(file)
                runs: Sequence[str] = list(imported_modules(plain))
                reads: Sequence[str] = list(module_reads(plain))
            else:
                runs, reads = answer
            imported += runs
            display = file.source.display
            for name in reads:
                importers[name] = display if importers.get(name, display) == display else None
        found += made
        batch = [waiting.pop(name) for name in imported if name in waiting]
    found.sort(key=lambda file: file.source.display)
    return found, importers


def import_roots(paths: Sequence[str], settings: Settings) -> list[Path]:
    """What Airflow puts on ``sys.path``: the DAG folders, then the repository root and extras.

    A file passed alone (as pre-commit does) outside any configured DAG folder counts its own
    folder as one, since that is the folder Airflow would be pointed at.
    """
    roots = list(settings.dags)
    for given in paths:
        path = absolute(Path(given))
        if path.is_dir():
            roots.append(path)
        elif not any(path.is_relative_to(root) for root in settings.dags):
            roots.append(path.parent)
    return [*roots, *settings.roots, settings.root]


def read_reported(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    world: World,
    left_out: LeftOut,
) -> tuple[list[FoundFile], list[FoundFile]]:
    """The files a run over ``paths`` reports on, read, with (also listed second) the DAG files
    it reports on only because they import a named file."""
    sources = _discover(paths, settings, inventory, left_out)
    files = [(source, world.read(source)) for source in sources]
    dependents = dependents_of(files, settings, ignore_syntax(settings, inventory), world)
    return files + dependents, dependents


def dependents_of(
    files: Sequence[FoundFile], settings: Settings, syntax: str, world: World
) -> list[FoundFile]:
    """The DAG files of the DAG folders (or the project) that import a file named on the command
    line and are not being linted already: their problems are that file's problems."""
    named = [source for source, data in files if source.named and isinstance(data, bytes)]
    if not named:
        return []
    folders = [str(cwd_relative(folder)) for folder in settings.dags or (settings.root,)]
    linted = {source.real for source, _ in files}
    imports = world.imports
    candidates = []
    known = []
    found = list(discover(folders, settings.exclude, settings.dags, syntax))
    held = imports.holding(s.real for s in found if s.real not in linted) if imports else set()
    for source in found:
        if source.real in linted:
            continue
        if source.real in held:
            known.append(source)
            continue
        data = world.read(source)
        if not isinstance(data, bytes):
            continue
        if imports_nothing(data):  # it cannot import a named file
            if imports is not None:
                imports.learn_unextracted(source.display, data)
            continue
        candidates.append((source, data))
    if imports is not None:
        imports.keep_only(source.real for source in found)

    def name_of(source: SourceFile) -> str:
        return module_name(source.real, world.roots)[0]

    def extract(batch: Sequence[tuple[SourceFile, bytes]]) -> list[Module]:
        modules = world.extractor.extract([world.request(s, data) for s, data in batch])
        if imports is not None:
            for module in modules:
                imports.learn(module)
        return modules

    readers = imports.readers if imports is not None else lambda reals, names: set()
    return list(importers(named, candidates, known, readers, name_of, extract, world.read))


def imported_modules(module: Module) -> Iterator[str]:
    """Every module the file runs by importing (``import a.b`` runs ``a`` too), once each."""
    sites = [*module.imports, *(site for task in module.tasks for site in task.imports)]
    names = {site.module for site in sites}
    for name in sorted(names):
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            yield ".".join(parts[:end])


def ignore_syntax(settings: Settings, inventory: Inventory | None) -> str:
    """``[core] dag_ignore_file_syntax``: the setting, else the default of the Airflow version."""
    if settings.dag_ignore_file_syntax is not None:
        return settings.dag_ignore_file_syntax
    return "regexp" if airflow_major(inventory) == 2 else "glob"


def airflow_major(inventory: Inventory | None) -> int:
    if inventory is None or inventory.airflow_major is None:
        return DEFAULT_AIRFLOW_MAJOR
    return inventory.airflow_major
