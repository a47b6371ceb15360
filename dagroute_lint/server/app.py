"""The ``dagroute-lint server`` process: pygls over stdio, one lint of the buffer per change.

Every change lints the buffer as ``dagroute-lint --stdin-filename`` would (modules it imports are
read from disk, never imported), in a thread, so hovers and code actions are answered meanwhile.
Lints run one at a time and always on the newest text: keystrokes that arrive during a lint are
folded into the next one, so a slow lint never queues stale work.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from dagroute_lint import __version__, api
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.errors import ConfigError
from dagroute_lint.fix import fix_source
from dagroute_lint.model import Position
from dagroute_lint.noqa import layout
from dagroute_lint.pipeline import collector
from dagroute_lint.records import record
from dagroute_lint.resolve.repository import AnalysedFile
from dagroute_lint.server.hover import routing_markdown, tasks_on_line
from dagroute_lint.server.projects import Projects
from dagroute_lint.server.protocol import (
    FIX_ALL,
    lines_of,
    lsp_diagnostic,
    noqa_edit,
    replacement,
    unusable,
    workspace_edit,
)
from dagroute_lint.server.rpc import Protocol
from dagroute_lint.sources.data_files import touches

# What the server re-reads: configuration, inventories and baselines, the modules DAG files
# import, and the data files they read (any name: a YAML, a JSON, a SQL file, a folder's listing).
_WATCHED = ("**/*",)


@record
class Linted:
    """One lint of one text of a document: what was reported, and the file's analysis."""

    text: str
    diagnostics: tuple[Diagnostic, ...]
    file: AnalysedFile | None  # None: nothing was analysed (excluded, or the project is broken)
    problem: str | None = None


class DagrouteServer(LanguageServer):
    """Lint results per open document, kept for the hovers and code actions of that text."""

    def __init__(self) -> None:
        super().__init__("dagroute-lint", __version__, protocol_cls=Protocol)
        self.projects = Projects()
        self.linted: dict[str, Linted] = {}
        self._dirty: set[str] = set()
        self._drain: asyncio.Task[None] | None = None
        self._lock: asyncio.Lock | None = None  # made on the server's event loop, when needed
        # One thread for every lint, since they run one at a time anyway: asyncio's shared pool
        # starts another thread for a lint handed over before the last one's thread has gone
        # idle, and each thread warms an allocator arena of its own to the size of a lint.
        self._linter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dagroute-lint")

    def schedule(self, uris: set[str] | list[str]) -> None:
        """Lint these documents soon, on their newest text."""
        self._dirty.update(uris)
        if self._drain is None or self._drain.done():
            self._drain = asyncio.ensure_future(self._lint_dirty())

    async def _lint_dirty(self) -> None:
        while self._dirty:
            uri = min(self._dirty)
            self._dirty.discard(uri)
            if uri not in self.workspace.text_documents:
                continue  # closed meanwhile
            document = self.workspace.get_text_document(uri)
            version, text = document.version, document.source
            result = await self.current(uri, text)
            if uri not in self.workspace.text_documents:
                continue  # closed while it was linted: its diagnostics were cleared
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri, version=version, diagnostics=_published(result, uri)
                )
            )

    async def current(self, uri: str, text: str) -> Linted:
        """The lint of exactly ``text``: the kept one, or a new one run in a thread."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            kept = self.linted.get(uri)
            if kept is not None and kept.text == text:
                return kept
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._linter, self._lint, uri, text)
            # Kept for the open documents only: one closed meanwhile (or never opened, as a
            # hover may name) would keep its text and analysis for the rest of the session.
            if uri in self.workspace.text_documents:
                self.linted[uri] = result
            return result

    def _lint(self, uri: str, text: str) -> Linted:
        path = Path(to_fs_path(uri) or uri)
        project = self.projects.for_document(path)
        if isinstance(project, ConfigError):
            return Linted(text, (), None, str(project))
        data = text.encode("utf-8", "surrogateescape")
        try:
            found = api.lint_buffer(path, data, project)
        except Exception as error:  # a crash on one buffer must not end the editor's server
            return Linted(text, (), None, f"internal error: {type(error).__name__}: {error}")
        return Linted(text, found.diagnostics, found.file)

    def forget_projects(self) -> None:
        """A configuration changed: read projects again and lint every open document."""
        self.projects.forget()
        self.linted.clear()
        self.schedule(list(self.workspace.text_documents))


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


def _published(result: Linted, uri: str) -> list[types.Diagnostic]:
    if result.problem is not None:
        return [unusable(result.problem)]
    lines = lines_of(result.text)
    return [lsp_diagnostic(lines, diagnostic, uri) for diagnostic in result.diagnostics]


server = DagrouteServer()


@server.feature(types.INITIALIZED)
async def _initialized(ls: DagrouteServer, params: types.InitializedParams) -> None:
    """Ask to hear of configuration and module changes made outside the editor's buffers."""
    watched = ls.client_capabilities.workspace
    dynamic = watched and watched.did_change_watched_files
    if not (dynamic and dynamic.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in _WATCHED]
    )
    registration = types.Registration(
        id="dagroute-lint-watch",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=options,
    )
    await ls.client_register_capability_async(types.RegistrationParams([registration]))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def _opened(ls: DagrouteServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule([params.text_document.uri])


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def _changed(ls: DagrouteServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule([params.text_document.uri])


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
def _saved(ls: DagrouteServer, params: types.DidSaveTextDocumentParams) -> None:
    """A saved module may be imported by other open documents: lint them all again."""
    path = _path(params.text_document.uri)
    if ls.projects.concerns(path):
        ls.forget_projects()
        return
    ls.linted.clear()
    ls.schedule(list(ls.workspace.text_documents))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def _closed(ls: DagrouteServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.linted.pop(uri, None)
    ls.projects.keep(_path(open_uri) for open_uri in ls.workspace.text_documents)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def _files_changed(ls: DagrouteServer, params: types.DidChangeWatchedFilesParams) -> None:
    paths = [_path(change.uri) for change in params.changes]
    if any(ls.projects.concerns(path) for path in paths):
        ls.forget_projects()
    elif any(path.suffix == ".py" for path in paths):  # an imported module changed on disk
        ls.linted.clear()
        ls.schedule(list(ls.workspace.text_documents))
    else:  # a data file some open document's DAGs are built from (``Module.data_reads``)
        reading = [uri for uri, linted in ls.linted.items() if _reads_any(linted, paths)]
        for uri in reading:
            ls.linted.pop(uri, None)
        ls.schedule(reading)


def _reads_any(linted: Linted, paths: list[Path]) -> bool:
    reads = linted.file.module.data_reads if linted.file is not None else ()
    return any(touches(reads, str(path)) for path in paths)


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def _hover(ls: DagrouteServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    result = await ls.current(uri, ls.workspace.get_text_document(uri).source)
    if result.file is None:
        return None
    tasks = tasks_on_line(result.file, params.position.line + 1)
    if not tasks:
        return None
    text = routing_markdown(result.file, tasks)
    return types.Hover(types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
)
async def _code_actions(
    ls: DagrouteServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    result = await ls.current(uri, document.source)
    lines = lines_of(result.text)
    comments = layout(result.text)
    first, last = params.range.start.line + 1, params.range.end.line + 1
    actions: list[types.CodeAction] = []
    fixable: list[Diagnostic] = []
    for diagnostic in result.diagnostics:
        if diagnostic.fix is not None:
            fixable.append(diagnostic)
        if not first <= diagnostic.line <= last:
            continue
        published = lsp_diagnostic(lines, diagnostic, uri)
        if diagnostic.fix is not None:
            fixed = _fixed(result.text, [diagnostic])
            if fixed is not None:
                actions.append(
                    _action(
                        f"Fix {diagnostic.code}: {diagnostic.message}",
                        uri,
                        document.version,
                        result.text,
                        fixed,
                        types.CodeActionKind.QuickFix,
                        [published],
                    )
                )
        edit = noqa_edit(lines, diagnostic, comments)
        if edit is not None:
            actions.append(
                types.CodeAction(
                    title=f"Ignore {diagnostic.code} on this line (# noqa: {diagnostic.code})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[published],
                    edit=workspace_edit(uri, document.version, [edit]),
                )
            )
    fixed_all = _fixed(result.text, fixable) if fixable else None
    if fixed_all is not None:
        actions.append(
            _action(
                "Fix all dagroute-lint problems",
                uri,
                document.version,
                result.text,
                fixed_all,
                FIX_ALL,
                None,
            )
        )
    return actions


def _fixed(text: str, diagnostics: list[Diagnostic]) -> str | None:
    """The text with the diagnostics' fixes applied (``fix.py``), ``None`` if they fail."""
    fixes = [(Position(d.line, d.column), d.fix) for d in diagnostics if d.fix is not None]
    after = fix_source(text.encode("utf-8", "surrogateescape"), fixes)
    return None if after is None else after.decode("utf-8", "surrogateescape")


def _action(
    title: str,
    uri: str,
    version: int | None,
    before: str,
    after: str,
    kind: str,
    diagnostics: list[types.Diagnostic] | None,
) -> types.CodeAction:
    edit = workspace_edit(uri, version, [replacement(before, after)])
    return types.CodeAction(title=title, kind=kind, diagnostics=diagnostics, edit=edit)


def serve() -> None:
    """Serve one editor over stdin and stdout until it says exit."""
    collector.for_long_lived()
    server.start_io()
