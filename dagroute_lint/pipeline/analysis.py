"""The analysis every front end starts from: discover → extract → resolve → place, once."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from dagroute_lint.catalog.airflow_defaults import DEFAULT_AIRFLOW_MAJOR, DEFAULT_QUEUE
from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.model import Expr, Module, Position, Ref, Source, SyntaxProblem
from dagroute_lint.pipeline.cache import SummaryCache
from dagroute_lint.pipeline.collector import rare_collections
from dagroute_lint.pipeline.dependents import importers
from dagroute_lint.pipeline.extraction import Extractor, Request
from dagroute_lint.pipeline.import_index import ImportIndex, imports_nothing
from dagroute_lint.pipeline.progress import ProgressLine
from dagroute_lint.records import record, replace
from dagroute_lint.resolve.parse_imports import reached_imports
from dagroute_lint.resolve.placement import place_dispatched
from dagroute_lint.resolve.repository import AnalysedFile, Repository
from dagroute_lint.resolve.tasks import Resolver
from dagroute_lint.resolve.values import Known, SymbolTable, as_expr
from dagroute_lint.sources.discovery import (
    SourceFile,
    absolute,
    cwd_relative,
    discover,
    force_excluded,
    might_define_dags,
    module_candidates,
    module_name,
)
from dagroute_lint.sources.files import DEFAULT_MAX_FILE_BYTES, read_source_status
from dagroute_lint.sources.first_party import FirstParty


@record
class Execution:
    """How a run does its work; the output never depends on any of it.

    ``jobs`` worker processes extract files, ``cache_dir`` keeps their summaries between runs
    (``None``: no cache), and ``progress`` is told of every file extracted.
    """

    jobs: int = 1
    cache_dir: Path | None = None
    progress: ProgressLine | None = None

    def extractor(self) -> Extractor:
        cache = SummaryCache(self.cache_dir) if self.cache_dir is not None else None
        return Extractor(self.jobs, cache, self.progress)


class ModuleIndex:
    """Extracted modules by name; files outside the report set are read only when referenced.

    pre-commit passes only changed files, so a constant imported from ``common/`` must still be
    found on disk: ``lookup`` searches the import roots as Python would, and remembers misses.
    """

    def __init__(
        self,
        roots: Sequence[Path],
        extractor: Extractor | None = None,
        max_bytes: int = DEFAULT_MAX_FILE_BYTES,
    ) -> None:
        self.roots = list(dict.fromkeys(roots))
        self.extractor = extractor or Extractor()
        self.max_bytes = max_bytes
        self._by_name: dict[str, Module | None] = {}
        # Told of every file read, when the run keeps an import index (a run with a cache).
        self.imports: ImportIndex | None = None

    def request(self, source: SourceFile, data: bytes) -> Request:
        name, is_package = module_name(source.real, self.roots)
        return Request(data, source.display, name, is_package)

    def add(self, module: Module, replace: bool = False) -> None:
        if replace or module.module_name not in self._by_name:
            self._by_name[module.module_name] = module

    def with_loop_values(
        self, requests: Sequence[Request], modules: Sequence[Module], symbols: SymbolTable
    ) -> list[Module]:
        """Extract again the files that loop over other modules' names, with those values, and
        the files that call other modules' functions, with those modules' sources."""
        again: list[tuple[int, Request]] = []
        for position, (request, module) in enumerate(zip(requests, modules)):
            externals: dict[str, Expr] = {}
            for qualname in module.loop_refs:
                resolved = symbols.evaluate(Ref(qualname))
                if isinstance(resolved, Known):
                    externals[qualname] = as_expr(resolved.value)
            sources = self.sources_for(module.call_refs)
            if externals or sources:
                again.append((position, replace(request, externals=externals, sources=sources)))
        result = list(modules)
        redone = self.extractor.extract([request for _, request in again])
        for (position, _), module in zip(again, redone):
            result[position] = module
            self.add(module, replace=True)
        return result

    def sources_for(self, qualnames: Sequence[str]) -> dict[str, Source]:
        """The repository modules defining the called names, and the repository modules they
        import (one level: a helper calling another helper), by module name."""
        found: dict[str, Source] = {}
        pending = [self._defining_module(qualname) for qualname in qualnames]
        for depth in range(2):
            following: list[str | None] = []
            for name in pending:
                if name is None or name in found:
                    continue
                source = self._source(name)
                if source is None:
                    continue
                found[name] = source
                module = self.lookup(name)
                if depth == 0 and module is not None:
                    following += [self._defining_module(site.module) for site in module.imports]
            pending = following
        return found

    def _defining_module(self, qualname: str) -> str | None:
        """The longest prefix of ``qualname`` that is a readable module of the repository."""
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            name = ".".join(parts[:cut])
            module = self.lookup(name)
            if module is not None and module.syntax_error is None:
                return name
        return None

    def _source(self, name: str) -> Source | None:
        for candidate in module_candidates(name, self.roots):
            if candidate.is_file():
                source = SourceFile(str(candidate), str(absolute(candidate)))
                data = self.read(source)
                if not isinstance(data, bytes):
                    return None
                _, is_package = module_name(source.real, self.roots)
                return Source(data, is_package, source.display)
        return None

    def lookup(self, name: str) -> Module | None:
        if name in self._by_name:
            return self._by_name[name]
        found: Module | None = None
        for candidate in module_candidates(name, self.roots):
            if candidate.is_file():
                source = SourceFile(str(candidate), str(absolute(candidate)))
                data = self.read(source)
                if isinstance(data, bytes):
                    found = self.extractor.extract([self.request(source, data)])[0]
                else:
                    found = self.unreadable(source, data)
                break
        self._by_name[name] = found
        return found

    def read(self, source: SourceFile) -> bytes | SyntaxProblem:
        """A module file's bytes (or why not): the one place modules are read from disk."""
        read_at = time.time_ns()
        data, status = read_file(source, self.max_bytes)
        if status is not None and self.imports is not None:
            self.imports.saw(source.display, source.real, status, read_at)
        return data

    def extracted(self) -> Iterator[Module]:
        """The summaries made or looked up so far."""
        return (module for module in self._by_name.values() if module is not None)

    def unreadable(self, source: SourceFile, problem: SyntaxProblem) -> Module:
        """The model of a file that could not be read: only its name and why."""
        name, _ = module_name(source.real, self.roots)
        return Module(path=source.display, module_name=name, syntax_error=problem)


def read_file(
    source: SourceFile, limit: int = DEFAULT_MAX_FILE_BYTES
) -> tuple[bytes | SyntaxProblem, os.stat_result | None]:
    """The file's bytes, or why it cannot be read (``limit``: the ``max-file-size`` setting),
    with its status when it was read whole."""
    try:
        data, status = read_source_status(source.real, limit + 1)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return SyntaxProblem(f"cannot read file: {reason}", Position(1, 1), skipped=True), None
    if len(data) > limit:
        return SyntaxProblem(
            f"file is larger than max-file-size ({limit:,} bytes; raise the setting to lint it)",
            Position(1, 1),
            skipped=True,
        ), None
    return data, status


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


def analyse(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    stdin: tuple[str, bytes] | None = None,
    execution: Execution | None = None,
) -> Repository:
    """The model of ``paths`` (or of one buffer from stdin, named as a file): every reported
    file's summary and resolved tasks, each dispatched task placed in the inventory's deployment.
    """
    execution = execution or Execution()
    with rare_collections(), execution.extractor() as extractor:
        return _analyse(paths, settings, inventory, stdin, extractor)


def _analyse(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    stdin: tuple[str, bytes] | None,
    extractor: Extractor,
) -> Repository:
    roots = import_roots([stdin[0]] if stdin else paths, settings)
    index = ModuleIndex(roots, extractor, settings.max_file_size)
    symbols = SymbolTable(index.lookup)
    if stdin is not None:
        display, data = stdin
        source = SourceFile(display, str(absolute(Path(display))), named=True)
        files: list[tuple[SourceFile, bytes | SyntaxProblem]] = [(source, data)]
        if settings.force_exclude and force_excluded(
            display, settings.excludes(), settings.respect_gitignore, settings.root
        ):
            files = []
        dependents: list[tuple[SourceFile, bytes | SyntaxProblem]] = []
    else:
        files, dependents = read_reported(paths, settings, inventory, index)
    sources, modules = _extract_reported(files, index, symbols)
    resolver = Resolver(
        symbols,
        inventory.default_queue if inventory is not None else DEFAULT_QUEUE,
        airflow_major(inventory),
    )
    analysed = []
    for source, module in zip(sources, modules):
        tasks = tuple(resolver.tasks(module))
        placed = place_dispatched(tasks, inventory) if inventory is not None else ()
        dag_ids = tuple(resolver.dag_ids(module))
        analysed.append(AnalysedFile(source, module, tasks, placed, dag_ids))
        # Read the repository modules that loading the file runs while the extractor is open.
        for _ in reached_imports(module, index.lookup):
            pass
    first_party = FirstParty(index.roots)
    return Repository(
        tuple(analysed),
        inventory,
        resolver.airflow_major,
        first_party,
        tuple(source.display for source, _ in dependents),
        lookup=index.lookup,
        locations=first_party,
    )


# A file found, with its bytes or why it cannot be read.
ReadFile = tuple[SourceFile, bytes | SyntaxProblem]


def read_reported(
    paths: Sequence[str], settings: Settings, inventory: Inventory | None, index: ModuleIndex
) -> tuple[
    list[tuple[SourceFile, bytes | SyntaxProblem]], list[tuple[SourceFile, bytes | SyntaxProblem]]
]:
    """The files a run over ``paths`` reports on, read, with (also listed second) the DAG files
    it reports on only because they import a named file."""
    syntax = ignore_syntax(settings, inventory)
    sources = discover(
        paths,
        settings.excludes(),
        settings.dags,
        syntax,
        force_exclude=settings.force_exclude,
        respect_gitignore=settings.respect_gitignore,
        root=settings.root,
        skip=settings.skip_folders,
    )
    files = [(source, index.read(source)) for source in sources]
    dependents = dependents_of(files, settings, syntax, index)
    return files + dependents, dependents


def dependents_of(
    files: Sequence[tuple[SourceFile, bytes | SyntaxProblem]],
    settings: Settings,
    syntax: str,
    index: ModuleIndex,
) -> list[tuple[SourceFile, bytes | SyntaxProblem]]:
    """The DAG files of the DAG folders (or the project) that import a file named on the command
    line and are not being linted already: their problems are that file's problems."""
    named = [source for source, data in files if source.named and isinstance(data, bytes)]
    if not named:
        return []
    folders = [str(cwd_relative(folder)) for folder in settings.dags or (settings.root,)]
    linted = {source.real for source, _ in files}
    imports = index.imports
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
        data = index.read(source)
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
        return module_name(source.real, index.roots)[0]

    def extract(batch: Sequence[tuple[SourceFile, bytes]]) -> list[Module]:
        modules = index.extractor.extract([index.request(s, data) for s, data in batch])
        if imports is not None:
            for module in modules:
                imports.learn(module)
        return modules

    readers = imports.readers if imports is not None else lambda reals, names: set()
    return list(importers(named, candidates, known, readers, name_of, extract, index.read))


def _extract_reported(
    files: Sequence[tuple[SourceFile, bytes | SyntaxProblem]],
    index: ModuleIndex,
    symbols: SymbolTable,
) -> tuple[list[SourceFile], list[Module]]:
    """Summaries of the files to report on, in display order.

    Files found in folders that cannot define a DAG are left out, unless a reported file imports
    them (then the DAG processor runs them too, so their problems are the importer's problems).
    """
    waiting: dict[str, tuple[SourceFile, bytes | SyntaxProblem]] = {}
    batch: list[tuple[SourceFile, bytes | SyntaxProblem]] = []
    for source, data in files:
        if source.named or not isinstance(data, bytes) or might_define_dags(data):
            batch.append((source, data))
        else:
            waiting.setdefault(module_name(source.real, index.roots)[0], (source, data))
    reported: list[tuple[SourceFile, Request | None, Module]] = []
    while batch:
        found = _summaries(batch, index)
        reported.extend(found)
        batch = [
            waiting.pop(name)
            for _, _, module in found
            for name in imported_modules(module)
            if name in waiting
        ]
    reported.sort(key=lambda entry: entry[0].display)
    readable = [(request, module) for _, request, module in reported if request is not None]
    redone = iter(
        index.with_loop_values(
            [request for request, _ in readable], [module for _, module in readable], symbols
        )
    )
    modules = [module if request is None else next(redone) for _, request, module in reported]
    return [source for source, _, _ in reported], modules


def _summaries(
    batch: Sequence[tuple[SourceFile, bytes | SyntaxProblem]], index: ModuleIndex
) -> list[tuple[SourceFile, Request | None, Module]]:
    """Extract a batch together (in parallel when it is large) and add it to the index."""
    requests = [
        index.request(source, data) if isinstance(data, bytes) else None for source, data in batch
    ]
    extracted = iter(index.extractor.extract([r for r in requests if r is not None]))
    found: list[tuple[SourceFile, Request | None, Module]] = []
    for (source, data), request in zip(batch, requests):
        if isinstance(data, SyntaxProblem):
            module = index.unreadable(source, data)
        else:
            module = next(extracted)
        index.add(module)
        found.append((source, request, module))
    return found


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
