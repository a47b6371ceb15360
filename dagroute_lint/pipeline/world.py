"""The modules a run resolves against, recording which ones each file's results read.

A file's results read other modules in two ways: its summary is extracted again with the values
of the names it loops over and the sources of the functions it calls, looked up among the
*plain* summaries; its tasks and rules then look modules up among the *final* ones, where a
reported file is its re-extracted summary. Both are built lazily, so a run that lints a few
files extracts only what those files reach. pre-commit passes only changed files, so a constant
imported from ``common/`` must still be found on disk: a name that no reported file defines is
searched on the import roots as Python would, and misses are remembered.

Every name looked up is recorded for the file being worked on (with what re-extracting a
reported module read, when that module is used), together with each question the rules ask
about the import roots: that is what a cached result is checked against (``pipeline.results``).
``ModuleStates`` says what a name resolves to now.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from dagroute_lint.catalog.stdlib_first import found_before_roots
from dagroute_lint.model import Expr, Module, Position, Ref, Source, SyntaxProblem, as_expr
from dagroute_lint.pipeline.extraction import Deployed, Extractor, Request
from dagroute_lint.pipeline.import_index import ImportIndex
from dagroute_lint.pipeline.results import Probe, State, content_hash
from dagroute_lint.records import record, replace
from dagroute_lint.resolve.values import Known, SymbolTable
from dagroute_lint.sources.data_files import data_state
from dagroute_lint.sources.discovery import SourceFile, absolute, module_candidates, module_name
from dagroute_lint.sources.files import DEFAULT_MAX_FILE_BYTES, read_source_status
from dagroute_lint.sources.first_party import FirstParty
from dagroute_lint.sources.project_modules import ProjectModules

# How many levels of imports, below the modules defining what a DAG file calls, are handed to
# its walk to run: a task helper that calls a helper that calls another is followed to the end.
SOURCE_LEVELS = 2


@record(frozen=False)
class Reads:
    """What one file's results read: module names, and the rules' questions with answers."""

    names: set[str] = field(default_factory=set)
    probes: dict[Probe, object] = field(default_factory=dict)


@record
class ReportedFile:
    """A file the run reports on, with its content and module name."""

    source: SourceFile
    data: bytes | SyntaxProblem
    name: str
    is_package: bool


class World:
    """The plain summaries (``lookup``) and the final ones (``final``) of a run's modules.

    ``reported`` maps module names to the reported files that define them: those names are
    answered with that file, never with another candidate on the import roots. Two reported
    files with one module name (which Python would never both import) are both reported; the
    name is answered with the first.
    """

    def __init__(
        self,
        roots: Sequence[Path],
        extractor: Extractor,
        max_bytes: int = DEFAULT_MAX_FILE_BYTES,
        imports: ImportIndex | None = None,
        project: ProjectModules | None = None,
        deployed: Deployed | None = None,
    ) -> None:
        self.roots = list(dict.fromkeys(roots))
        # What the deployment tells every extraction (data roots: the repository and the
        # import roots, where DAG files may read data files from).
        self.deployed = deployed or Deployed()
        # The modules whose reads are not the inventory's (``settled``), by module name.
        self._deployed: dict[str, Deployed] = {}
        # Where the repository's modules off the roots are looked for (the project folder).
        self.project = project
        self.extractor = extractor
        self.max_bytes = max_bytes
        # Told of every file read, when the run keeps an import index (a run with a cache).
        self.imports = imports
        self.reported: dict[str, ReportedFile] = {}
        self.symbols = SymbolTable(self.lookup)
        self._by_name: dict[str, Module | None] = {}  # names found on the roots
        self._plain: dict[str, Module] = {}  # reported files', by the name shown
        self._final: dict[str, Module] = {}
        self._again_reads: dict[str, set[str]] = {}
        self._reads = Reads()
        self.contents: dict[str, bytes | SyntaxProblem] = {}  # each file read, by path text
        self.real_paths: set[str] = set()  # each file read, by its real path

    def report(self, file: ReportedFile) -> None:
        """``file`` is reported: its module name is answered with it (the first one wins)."""
        self.reported.setdefault(file.name, file)

    def read(self, source: SourceFile) -> bytes | SyntaxProblem:
        """A module file's bytes (or why not): the one place modules are read from disk.

        Kept by the path found and the candidate searched (``ModuleStates`` asks by the
        latter), so that an entry records the content its results were made from, not a later
        one; hashed only when asked, since a one-file run reads every file of the DAG folders
        to find the file's importers, and asks about a few.
        """
        read_at = time.time_ns()
        data, status = read_file(source, self.max_bytes)
        if status is not None and self.imports is not None:
            self.imports.saw(source.display, source.real, status, read_at)
        self.contents[source.real] = self.contents[source.display] = data
        self.real_paths.add(source.real)
        return data

    @contextlib.contextmanager
    def reading_for(self, reads: Reads) -> Iterator[Reads]:
        """Record every look-up made inside the block in ``reads``."""
        previous, self._reads = self._reads, reads
        try:
            yield reads
        finally:
            self._reads = previous

    def request(self, source: SourceFile, data: bytes) -> Request:
        name, is_package = module_name(source.real, self.roots)
        return Request(data, source.display, name, is_package, deployed=self.deployed)

    def lookup(self, name: str) -> Module | None:
        """The plain summary of the module ``name``: a reported file's, else the first file on
        the import roots (``None`` when there is none)."""
        self._reads.names.add(name)
        if found_before_roots(name):
            return None  # Python finds the standard library's module first
        file = self.reported.get(name)
        if file is not None:
            return self.read_data_of(self.plain(file))
        if name in self._by_name:
            return self.read_data_of(self._by_name[name])
        found: Module | None = None
        for candidate in module_candidates(name, self.roots):
            if candidate.is_file():
                source = SourceFile(str(candidate), str(absolute(candidate)))
                data = self.read(source)
                if isinstance(data, bytes):
                    request = self.request(source, data)
                    found = self._by_name[name] = self.extractor.extract([request])[0]
                    found = self.settled(found, request)
                else:
                    found = self.unreadable(source, data)
                break
        self._by_name[name] = found
        return self.read_data_of(found)

    def settled(self, module: Module, request: Request) -> Module:
        """``module`` as it reads the environment and the Variables: extracted again, with every
        read unknown, when a repository module it imports changes them when imported."""
        environment = self.deployed.parse_environment
        if environment is None or not module.reads_deployment:
            return module
        changed = self.imported_change(module)
        if changed is None:
            return module
        deployed = replace(self.deployed, parse_environment=replace(environment, changed=changed))
        self._deployed[module.module_name] = deployed
        return self.extractor.extract([replace(request, deployed=deployed)])[0]

    def imported_change(self, module: Module, seen: set[str] | None = None) -> str | None:
        """Why what ``module`` reads of the environment or the Variables may not be the
        inventory's: a repository module it imports at module level (at any depth) changes
        them when imported. Every module looked at is recorded as read."""
        seen = set() if seen is None else seen
        for site in module.imports:
            if site.scope != "module":
                continue
            for name in (site.module, *(f"{site.module}.{part}" for part in site.names)):
                if name in seen:
                    continue
                seen.add(name)
                imported = self.lookup(name)
                if imported is None:
                    continue
                if imported.changes_deployment is not None:
                    return (
                        f"module {name}, imported before, changes the environment or the "
                        f"Variables ({imported.changes_deployment})"
                    )
                found = self.imported_change(imported, seen)
                if found is not None:
                    return found
        return None

    def plain(self, file: ReportedFile) -> Module:
        """A reported file's summary as extraction alone gives it."""
        found = self._plain.get(file.source.display)
        if found is None:
            self.prepare([file])
            found = self._plain[file.source.display]
        return found

    def prepare(self, files: Sequence[ReportedFile]) -> None:
        """Plain summaries of reported files, extracted as one batch (in parallel if large)."""
        pending = [file for file in files if file.source.display not in self._plain]
        readable = [file for file in pending if isinstance(file.data, bytes)]
        extracted = iter(self.extractor.extract([self._request_for(file) for file in readable]))
        for file in pending:
            if isinstance(file.data, SyntaxProblem):
                module = self.unreadable(file.source, file.data)
            else:
                module = next(extracted)
            self._plain[file.source.display] = module
        for file in readable:
            module = self._plain[file.source.display]
            self._plain[file.source.display] = self.settled(module, self._request_for(file))

    def _request_for(self, file: ReportedFile) -> Request:
        data = file.data if isinstance(file.data, bytes) else b""
        deployed = self._deployed.get(file.name, self.deployed)
        return Request(data, file.source.display, file.name, file.is_package, deployed=deployed)

    def prepare_final(self, files: Sequence[ReportedFile]) -> None:
        """Final summaries of reported files: those that loop over other modules' names or call
        their functions are extracted again, as one batch."""
        self.prepare(files)
        again: list[tuple[str, Request]] = []
        for file in files:
            display = file.source.display
            if display in self._final:
                continue
            request = self._again(file)
            if request is None:
                self._final[display] = self._plain[display]
            else:
                again.append((display, request))
        for (display, _), module in zip(again, self.extractor.extract([r for _, r in again])):
            self._final[display] = module

    def _again(self, file: ReportedFile) -> Request | None:
        """The request extracting ``file`` again with what it reads of other modules, if any."""
        module = self._plain[file.source.display]
        if not isinstance(file.data, bytes):
            return None
        with self.reading_for(Reads()) as reads:
            externals: dict[str, Expr] = {}
            for qualname in module.loop_refs:
                resolved = self.symbols.evaluate(Ref(qualname))
                if isinstance(resolved, Known):
                    externals[qualname] = as_expr(resolved.value)
            sources = self.sources_for(module.call_refs)
        self._again_reads[file.source.display] = reads.names
        if not externals and not sources:
            return None
        return replace(self._request_for(file), externals=externals, sources=sources)

    def final_of(self, file: ReportedFile) -> Module:
        """A reported file's module as resolution and rules see it; records what extracting it
        again read."""
        display = file.source.display
        if display not in self._final:
            previous, self._reads = self._reads, Reads()
            try:
                self.prepare_final([file])
            finally:
                self._reads = previous
        self._reads.names |= self._again_reads.get(display, set())
        module = self._final[display]
        self.read_data_of(module)
        return module

    def read_data_of(self, module: Module | None) -> Module | None:
        """``module``, recording the data files it was made from (``Module.data_reads``) for the
        file being worked on: its results hold while those files are what they were."""
        if module is not None:
            for operation, argument, state in module.data_reads:
                self._reads.probes[("data", operation, argument)] = state
        return module

    def final(self, name: str) -> Module | None:
        """The module ``name`` as resolution and rules see it; records the name."""
        self._reads.names.add(name)
        file = None if found_before_roots(name) else self.reported.get(name)
        if file is None:
            return self.lookup(name)
        return self.final_of(file)

    def sources_for(self, qualnames: Sequence[str]) -> dict[str, Source]:
        """The repository modules defining the called names, and the repository modules they
        import, two levels deep (a task helper calling a helper that calls another), by module
        name."""
        found: dict[str, Source] = {}
        pending = [self._defining_module(qualname) for qualname in qualnames]
        for depth in range(SOURCE_LEVELS + 1):
            following: list[str | None] = []
            for name in pending:
                if name is None or name in found:
                    continue
                source = self._source(name)
                if source is None:
                    continue
                found[name] = source
                module = self.lookup(name)
                if depth < SOURCE_LEVELS and module is not None:
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
        if found_before_roots(name):
            return None
        for candidate in module_candidates(name, self.roots):
            if candidate.is_file():
                source = SourceFile(str(candidate), str(absolute(candidate)))
                data = self.read(source)
                if not isinstance(data, bytes):
                    return None
                _, is_package = module_name(source.real, self.roots)
                return Source(data, is_package, source.display)
        return None

    def extracted(self) -> Iterator[Module]:
        """The plain summaries made so far."""
        yield from self._plain.values()
        yield from (module for module in self._by_name.values() if module is not None)

    def unreadable(self, source: SourceFile, problem: SyntaxProblem) -> Module:
        """The model of a file that could not be read: only its name and why."""
        name, _ = module_name(source.real, self.roots)
        return Module(path=source.display, module_name=name, syntax_error=problem)

    def probe(self, question: Probe, answer: object) -> object:
        self._reads.probes[question] = answer
        return answer


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


class RecordingRoots(FirstParty):
    """``FirstParty`` that records each question the rules ask, with its answer."""

    def __init__(self, world: World) -> None:
        super().__init__(world.roots, world.project)
        self._world = world

    def __call__(self, module: str) -> bool:
        return bool(self._world.probe(("first_party", module), super().__call__(module)))

    def missing_part(self, module: str) -> str | None:
        found = super().missing_part(module)
        self._world.probe(("missing_part", module), found)
        return found

    def stray(self, module: str, importer: Path) -> Path | None:
        found = super().stray(module, importer)
        self._world.probe(("stray", module, str(importer)), str(found) if found else None)
        return found

    def off_roots(self, module: str) -> Path | None:
        found = super().off_roots(module)
        self._world.probe(("off_roots", module), str(found) if found else None)
        return found

    def shadowed(self, module: str) -> Path | None:
        found = super().shadowed(module)
        self._world.probe(("shadowed", module), str(found) if found else None)
        return found


class ProbeAnswers:
    """The answer each question gets now, as ``RecordingRoots`` recorded it; asked once each
    (most files ask the same questions)."""

    def __init__(
        self,
        roots: Sequence[Path],
        project: ProjectModules | None = None,
        data_roots: Sequence[str] = (),
        imported: Callable[..., bool] | None = None,
    ) -> None:
        self._roots = FirstParty(roots, project)
        self._data_roots = data_roots
        # Whether another file of the run imports a file (its name shown, its module names).
        self._imported = imported or (lambda display, *names: False)
        self._answers: dict[Probe, object] = {}

    def __call__(self, question: Probe) -> object:
        if question not in self._answers:
            self._answers[question] = self._answer(question)
        return self._answers[question]

    def _answer(self, question: Probe) -> object:
        kind, module, *rest = question
        if kind == "imported":
            return self._imported(module, *rest)
        if kind == "data" and len(rest) == 1:
            return data_state(module, rest[0], self._data_roots)
        return _answer(self._roots, question)


def _answer(roots: FirstParty, question: Probe) -> object:
    kind, module, *rest = question
    if kind == "first_party":
        return roots(module)
    if kind == "missing_part":
        return roots.missing_part(module)
    if kind == "stray" and rest:
        found = roots.stray(module, Path(rest[0]))
        return str(found) if found else None
    if kind in ("off_roots", "shadowed"):
        found = getattr(roots, kind)(module)
        return str(found) if found else None
    return ("unknown question",)


class ModuleStates:
    """What a module name resolves to now: the reported file defining it (by its key), and the
    first file on the import roots (by its content), each or neither.

    Both are kept because a reported file's name is answered with that file, while the sources
    of called functions are read from the first candidate on the roots.
    """

    def __init__(
        self,
        roots: Sequence[Path],
        reported: Mapping[str, ReportedFile],
        own: Callable[[ReportedFile], str],
        known: Mapping[str, bytes | SyntaxProblem],
        read: Callable[[SourceFile], bytes | SyntaxProblem],
    ) -> None:
        self.roots = list(dict.fromkeys(roots))
        self._read = read  # as the run reads files (its ``max-file-size``)
        self._root_texts = [os.path.join(str(root), "") for root in self.roots]
        self.reported = reported
        self._own = own
        self._known = known  # path text -> content, for files read already
        self._states: dict[str, State] = {}

    def __call__(self, name: str) -> State:
        found = self._states.get(name)
        if found is None:
            file = self.reported.get(name)
            mine: State = (file.source.display, self._own(file)) if file is not None else ()
            found = self._states[name] = (mine, self._on_roots(name))
        return found

    def _on_roots(self, name: str) -> State:
        """As ``World.lookup`` searches (``module_candidates``), in plain strings: this runs
        for every name every file read, on every warm run."""
        relative = os.path.join(*name.split("."))
        for root in self._root_texts:
            for candidate in (f"{root}{relative}.py", f"{root}{relative}{os.sep}__init__.py"):
                if os.path.isfile(candidate):
                    return (candidate, self._hash(candidate))
        return ()

    def _hash(self, candidate: str) -> str:
        data = self._known.get(candidate)
        if data is None:
            data = self._read(SourceFile(candidate, candidate))
        return file_state(data)


def file_state(data: bytes | SyntaxProblem) -> str:
    """A module file by its content, or by why it cannot be read."""
    return content_hash(data) if isinstance(data, bytes) else f"unreadable: {data.message}"
