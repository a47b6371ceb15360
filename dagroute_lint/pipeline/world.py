"""The modules a run resolves against, recording which ones each file's results read.

A file's results read other modules in two ways, as a full run does (``pipeline.analysis``):
its summary is extracted again with the values of the names it loops over and the sources of
the functions it calls, looked up among the *plain* summaries; its tasks and rules then look
modules up among the *final* ones, where a reported file is its re-extracted summary. Both are
built lazily here, so a run that lints a few files extracts only what those files reach, and
every name looked up is recorded for the file being worked on (with what re-extracting a
reported module read, when that module is used), together with each question the rules ask
about the import roots. ``ModuleStates`` says what a name resolves to now, which is how a
cached entry is checked.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from dagroute_lint.model import Expr, Module, Ref, SyntaxProblem
from dagroute_lint.pipeline.analysis import ModuleIndex
from dagroute_lint.pipeline.extraction import Extractor, Request
from dagroute_lint.pipeline.results import Probe, State, content_hash
from dagroute_lint.records import record, replace
from dagroute_lint.resolve.values import Known, SymbolTable, as_expr
from dagroute_lint.sources.discovery import SourceFile
from dagroute_lint.sources.first_party import FirstParty


@record(frozen=False)
class Reads:
    """What one file's results read: module names, and the rules' questions with answers."""

    names: set[str] = field(default_factory=set)
    probes: dict[Probe, object] = field(default_factory=dict)


@record
class ReportedFile:
    """A file the run reports on, with its content, module name and key (``results.own_key``)."""

    source: SourceFile
    data: bytes | SyntaxProblem
    own: str
    name: str
    is_package: bool


class World(ModuleIndex):
    """The plain summaries (``lookup``, as ``ModuleIndex``) and the final ones (``final``).

    ``reported`` maps module names to the reported files that define them: those names are
    answered with that file, never with another candidate on the import roots.
    """

    def __init__(
        self,
        roots: Sequence[Path],
        extractor: Extractor,
        reported: dict[str, ReportedFile],
        max_bytes: int,
    ) -> None:
        super().__init__(roots, extractor, max_bytes)
        self.reported = reported
        self.symbols = SymbolTable(self.lookup)
        self._final: dict[str, Module | None] = {}
        self._again_reads: dict[str, set[str]] = {}
        self._reads = Reads()
        self.contents: dict[str, bytes | SyntaxProblem] = {}  # each file read, by path text

    def read(self, source: SourceFile) -> bytes | SyntaxProblem:
        data = super().read(source)
        # By the path found and the candidate searched (``ModuleStates`` asks by the latter), so
        # that an entry records the content its results were made from, not a later one. Kept
        # as read, and hashed only when asked: a one-file run reads every file of the DAG
        # folders to find the file's importers, and asks about a few.
        self.contents[source.real] = self.contents[source.display] = data
        return data

    @contextlib.contextmanager
    def reading_for(self, reads: Reads) -> Iterator[Reads]:
        """Record every look-up made inside the block in ``reads``."""
        previous, self._reads = self._reads, reads
        try:
            yield reads
        finally:
            self._reads = previous

    def lookup(self, name: str) -> Module | None:
        self._reads.names.add(name)
        if name not in self._by_name and name in self.reported:
            self.prepare([self.reported[name]])
        return super().lookup(name)

    def prepare(self, files: Sequence[ReportedFile]) -> None:
        """Plain summaries of reported files, extracted as one batch (in parallel if large)."""
        pending = [
            file
            for file in files
            if self.reported.get(file.name) is file and file.name not in self._by_name
        ]
        readable = [file for file in pending if isinstance(file.data, bytes)]
        extracted = iter(self.extractor.extract([self.request_for(file) for file in readable]))
        for file in pending:
            if isinstance(file.data, SyntaxProblem):
                self.add(self.unreadable(file.source, file.data))
            else:
                self.add(next(extracted))

    def request_for(self, file: ReportedFile) -> Request:
        data = file.data if isinstance(file.data, bytes) else b""
        return Request(data, file.source.display, file.name, file.is_package)

    def prepare_final(self, files: Sequence[ReportedFile]) -> None:
        """Final summaries of reported files: those that loop over other modules' names or call
        their functions are extracted again, as one batch."""
        self.prepare(files)
        again: list[tuple[str, Request]] = []
        for file in files:
            name = file.name
            if name in self._final or self.reported.get(name) is not file:
                continue
            request = self._again(name, file)
            if request is None:
                self._final[name] = self._by_name.get(name)
            else:
                again.append((name, request))
        for (name, _), module in zip(again, self.extractor.extract([r for _, r in again])):
            self._final[name] = module

    def _again(self, name: str, file: ReportedFile) -> Request | None:
        """The request extracting ``file`` again with what it reads of other modules, if any."""
        module = self._by_name.get(name)
        if module is None or not isinstance(file.data, bytes):
            return None
        with self.reading_for(Reads()) as reads:
            externals: dict[str, Expr] = {}
            for qualname in module.loop_refs:
                resolved = self.symbols.evaluate(Ref(qualname))
                if isinstance(resolved, Known):
                    externals[qualname] = as_expr(resolved.value)
            sources = self.sources_for(module.call_refs)
        self._again_reads[name] = reads.names
        if not externals and not sources:
            return None
        return replace(self.request_for(file), externals=externals, sources=sources)

    def final(self, name: str) -> Module | None:
        """The module as resolution and rules see it; records the name and, for a reported
        module extracted again, what that extraction read."""
        self._reads.names.add(name)
        file = self.reported.get(name)
        if file is None:
            return super().lookup(name)
        if name not in self._final:
            previous, self._reads = self._reads, Reads()
            try:
                self.prepare_final([file])
            finally:
                self._reads = previous
        self._reads.names |= self._again_reads.get(name, set())
        return self._final[name]

    def probe(self, question: Probe, answer: object) -> object:
        self._reads.probes[question] = answer
        return answer


class RecordingRoots(FirstParty):
    """``FirstParty`` that records each question the rules ask, with its answer."""

    def __init__(self, roots: Sequence[Path], world: World) -> None:
        super().__init__(roots)
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


class ProbeAnswers:
    """The answer each question gets now, as ``RecordingRoots`` recorded it; asked once each
    (most files ask the same questions)."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self._roots = FirstParty(roots)
        self._answers: dict[Probe, object] = {}

    def __call__(self, question: Probe) -> object:
        if question not in self._answers:
            self._answers[question] = _answer(self._roots, question)
        return self._answers[question]


def _answer(roots: FirstParty, question: Probe) -> object:
    kind, module, *rest = question
    if kind == "first_party":
        return roots(module)
    if kind == "missing_part":
        return roots.missing_part(module)
    if kind == "stray" and rest:
        found = roots.stray(module, Path(rest[0]))
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
        known: Mapping[str, bytes | SyntaxProblem],
        read: Callable[[SourceFile], bytes | SyntaxProblem],
    ) -> None:
        self.roots = list(dict.fromkeys(roots))
        self._read = read  # as the run reads files (its ``max-file-size``)
        self._root_texts = [os.path.join(str(root), "") for root in self.roots]
        self.reported = reported
        self._known = known  # path text -> content, for files read already
        self._states: dict[str, State] = {}

    def __call__(self, name: str) -> State:
        found = self._states.get(name)
        if found is None:
            file = self.reported.get(name)
            mine: State = (file.source.display, file.own) if file is not None else ()
            found = self._states[name] = (mine, self._on_roots(name))
        return found

    def _on_roots(self, name: str) -> State:
        """As ``ModuleIndex.lookup`` searches (``module_candidates``), in plain strings: this
        runs for every name every file read, on every warm run."""
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
